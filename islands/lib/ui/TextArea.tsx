import type { TextareaHTMLAttributes } from "react";
import { FieldFrame } from "./Field.tsx";

export type TextAreaFieldProps = TextareaHTMLAttributes<HTMLTextAreaElement> & {
  label: string;
  error?: string | null;
  hint?: string;
};

/** A labelled multi-line input with its error, the counterpart of Field. */
export function TextAreaField({ label, error, hint, id, className, ...input }: TextAreaFieldProps) {
  return (
    <FieldFrame
      label={label}
      error={error}
      hint={hint}
      id={id}
      control={(inputId, describedBy, invalid) => (
        <textarea
          id={inputId}
          className={`input textarea${className ? ` ${className}` : ""}`}
          aria-invalid={invalid}
          aria-describedby={describedBy}
          rows={3}
          {...input}
        />
      )}
    />
  );
}
