import { type InputHTMLAttributes, type ReactElement, useId } from "react";

export type FieldProps = InputHTMLAttributes<HTMLInputElement> & {
  label: string;
  /** Error text under the field (e.g. from ApiError.fields[name][0]). */
  error?: string | null;
  hint?: string;
};

/** A base class plus the caller's. */
export function classes(base: string, extra?: string): string {
  return extra ? `${base} ${extra}` : base;
}

export type ControlWiring = {
  id: string;
  "aria-invalid": true | undefined;
  "aria-describedby": string | undefined;
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
    /** Builds the control from its wiring: id, aria-invalid, aria-describedby. */
    control: (wiring: ControlWiring) => ReactElement;
  },
) {
  const generated = useId();
  const inputId = id ?? generated;
  const messageId = `${inputId}-message`;
  return (
    <div className="field">
      <label htmlFor={inputId}>{label}</label>
      {control({
        id: inputId,
        "aria-invalid": error ? true : undefined,
        "aria-describedby": error || hint ? messageId : undefined,
      })}
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
      control={(wiring) => <input {...wiring} className={classes("input", className)} {...input} />}
    />
  );
}

/**
 * A whole-number field bounded by a contract limit (`LIMITS.slaMinutes`...): the browser's own
 * stepper and numeric keypad keep to the range the server checks.
 */
export function WholeNumberField(
  { limit, ...props }: Omit<FieldProps, "type" | "min" | "max"> & {
    limit: { min: number; max: number };
  },
) {
  return <Field type="number" inputMode="numeric" min={limit.min} max={limit.max} {...props} />;
}
