import { type InputHTMLAttributes, useId } from "react";

export type FieldProps = InputHTMLAttributes<HTMLInputElement> & {
  label: string;
  /** Error text under the field (e.g. from ApiError.fields[name][0]). */
  error?: string | null;
  hint?: string;
};

/** A labelled input with its error: `<Field label={t("x.name")} name="name" error={errors.name} />`. */
export function Field({ label, error, hint, id, className, ...input }: FieldProps) {
  const generated = useId();
  const inputId = id ?? generated;
  const messageId = `${inputId}-message`;
  return (
    <div className="field">
      <label htmlFor={inputId}>{label}</label>
      <input
        id={inputId}
        className={`input${className ? ` ${className}` : ""}`}
        aria-invalid={error ? true : undefined}
        aria-describedby={error || hint ? messageId : undefined}
        {...input}
      />
      {error
        ? <span id={messageId} className="field-error">{error}</span>
        : hint
        ? <span id={messageId} className="field-hint">{hint}</span>
        : null}
    </div>
  );
}
