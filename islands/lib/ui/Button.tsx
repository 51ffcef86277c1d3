import { type ButtonHTMLAttributes, forwardRef, type ReactNode } from "react";
import * as Tooltip from "radix-ui/tooltip";

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

/** A round icon button with a tooltip (radix Tooltip) and an accessible name. */
export const IconButton = forwardRef<HTMLButtonElement, IconButtonProps>(
  ({ label, children, className, type, ...rest }, ref) => (
    <Tooltip.Root>
      <Tooltip.Trigger asChild>
        <button
          ref={ref}
          type={type ?? "button"}
          aria-label={label}
          className={`icon-btn${className ? ` ${className}` : ""}`}
          {...rest}
        >
          {children}
        </button>
      </Tooltip.Trigger>
      <Tooltip.Portal>
        <Tooltip.Content className="tooltip" sideOffset={6}>
          {label}
        </Tooltip.Content>
      </Tooltip.Portal>
    </Tooltip.Root>
  ),
);
