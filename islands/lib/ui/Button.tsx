import { type ButtonHTMLAttributes, forwardRef, type ReactNode } from "react";

type Variant = "primary" | "secondary" | "ghost" | "danger";

export type ButtonProps = ButtonHTMLAttributes<HTMLButtonElement> & {
  variant?: Variant;
  block?: boolean;
  loading?: boolean;
};

/** The app's button: `<Button variant="primary" loading={saving}>Save</Button>`. */
export const Button = forwardRef<HTMLButtonElement, ButtonProps>(
  ({ variant = "secondary", block, loading, className, disabled, type, ...rest }, ref) => (
    <button
      ref={ref}
      type={type ?? "button"}
      className={`btn btn-${variant}${block ? " btn-block" : ""}${
        className ? ` ${className}` : ""
      }`}
      disabled={disabled || loading}
      aria-busy={loading || undefined}
      {...rest}
    />
  ),
);

export type IconButtonProps = ButtonHTMLAttributes<HTMLButtonElement> & {
  /** Accessible name, also shown as a tooltip. */
  label: string;
  children: ReactNode;
};

/**
 * A round icon button with an accessible name, shown as a tooltip on hover and keyboard focus
 * (CSS: `[data-tooltip]` in base.css; no positioning library on every page).
 */
export const IconButton = forwardRef<HTMLButtonElement, IconButtonProps>(
  ({ label, children, className, type, ...rest }, ref) => (
    <button
      ref={ref}
      type={type ?? "button"}
      aria-label={label}
      data-tooltip={label}
      className={`icon-btn${className ? ` ${className}` : ""}`}
      {...rest}
    >
      {children}
    </button>
  ),
);
