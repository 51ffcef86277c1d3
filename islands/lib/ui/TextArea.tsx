import { type TextareaHTMLAttributes, useId } from "react";

export type TextAreaFieldProps = TextareaHTMLAttributes<HTMLTextAreaElement> & {
  label: string;
  error?: string | null;
  hint?: string;
};

/** A labelled multi-line input with its error, the counterpart of Field. */
export function TextAreaField({ label, error, hint, id, className, ...input }: TextAreaFieldProps) {
  const generated = useId();
  const inputId = id ?? generated;
  const messageId = `${inputId}-message`;
  return (
    <div className="field">
      <label htmlFor={inputId}>{label}</label>
      <textarea
        id={inputId}
        className={`input textarea${className ? ` ${className}` : ""}`}
        aria-invalid={error ? true : undefined}
        aria-describedby={error || hint ? messageId : undefined}
        rows={3}
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
