import { type InputHTMLAttributes, type ReactElement, useId } from "react";

export type FieldProps = InputHTMLAttributes<HTMLInputElement> & {
  label: string;
  /** Error text under the field (e.g. from ApiError.fields[name][0]). */
  error?: string | null;
  hint?: string;
};

/**
 * The label, the control and the error (or hint) under it, wired for screen readers: the control
 * is built by `control(id, describedBy, invalid)`. Field and TextAreaField are its two uses.
 */
export function FieldFrame(
  { label, error, hint, id, control }: {
    label: string;
    error?: string | null;
    hint?: string;
    id?: string;
    control: (
      id: string,
      describedBy: string | undefined,
      invalid: true | undefined,
    ) => ReactElement;
  },
) {
  const generated = useId();
  const inputId = id ?? generated;
  const messageId = `${inputId}-message`;
  return (
    <div className="field">
      <label htmlFor={inputId}>{label}</label>
      {control(inputId, error || hint ? messageId : undefined, error ? true : undefined)}
      {error
        ? <span id={messageId} className="field-error">{error}</span>
        : hint
        ? <span id={messageId} className="field-hint">{hint}</span>
        : null}
    </div>
  );
}

/** A labelled input with its error: `<Field label={t("x.name")} name="name" error={errors.name} />`. */
export function Field({ label, error, hint, id, className, ...input }: FieldProps) {
  return (
    <FieldFrame
      label={label}
      error={error}
      hint={hint}
      id={id}
      control={(inputId, describedBy, invalid) => (
        <input
          id={inputId}
          className={`input${className ? ` ${className}` : ""}`}
          aria-invalid={invalid}
          aria-describedby={describedBy}
          {...input}
        />
      )}
    />
  );
}
