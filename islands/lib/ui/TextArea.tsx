import type { TextareaHTMLAttributes } from "react";
import { classes, FieldFrame } from "./Field.tsx";

export type TextAreaFieldProps = TextareaHTMLAttributes<HTMLTextAreaElement> & {
  label: string;
  error?: string | null;
  hint?: string;
};

/** A labelled multi-line input with its error, the counterpart of Field. */
export function TextAreaField(
  { label, error, hint, id, className, rows = 3, ...input }: TextAreaFieldProps,
) {
  return (
    <FieldFrame
      label={label}
      error={error}
      hint={hint}
      id={id}
      control={(w) => (
        <textarea {...w} className={classes("input textarea", className)} rows={rows} {...input} />
      )}
    />
  );
}
