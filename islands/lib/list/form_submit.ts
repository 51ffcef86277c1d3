import { type FormEvent, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { api } from "../api.ts";
import { ADMIN_SUBMIT_DELAY_MS, FORM_SUBMIT_DELAY_MS } from "../form_delay.ts";
import { toast } from "../toast.ts";
import { type CodeFields, refusal } from "./form_rules.ts";

export type FieldProps = {
  name: string;
  value: string;
  onChange: (event: { target: { value: string } }) => void;
  error: string | undefined;
};

export type FormSubmit<T = unknown> = {
  /** Field name -> text shown under that field (local rules first, then the server's). */
  errors: Record<string, string>;
  setErrors: (errors: Record<string, string>) => void;
  /** A field changed: its old message goes. */
  clearError: (name: string) => void;
  saving: boolean;
  /** Checks, waits the submit delay and sends: the saved answer, or null when refused. */
  submit: () => Promise<T | null>;
  onSubmit: (event: FormEvent) => void;
  /** A text field's props: `<Field label=... {...form.bind("name", name, setName)} />`. */
  bind: (name: string, value: string, set: (value: string) => void) => FieldProps;
};

/** A local rule's answer for a field: an i18n key, or a key with its values. */
export type Problem = string | { key: string; values: Record<string, string> };

export type SubmitOptions<T> = {
  validate?: () => Record<string, Problem>;
  send: () => Promise<T>;
  successKey?: string;
  onDone: (saved: T) => void;
  admin?: boolean;
  /** No submit delay: the form sends nothing itself (e.g. a choice handed to the page). */
  instant?: boolean;
  /** Server codes that belong to a field: said under it (and as a toast). */
  codeFields?: CodeFields;
};

/**
 * The submit of a form dialog (seeds/000 and seeds/001 section 9, section 8):
 * - `validate` runs first; its answer (field -> i18n key) is shown under the fields and stops;
 * - then the button stays busy for the submit delay (400 ms; `admin`: 500 ms) before `send`, so a
 *   double click sends once;
 * - success: the `successKey` toast (if given), then `onDone(saved)`;
 * - failure: `ERR_VALIDATION` fields under their inputs, a `codeFields` code under its field;
 *   any other code as a translated toast; the dialog stays open with what was typed.
 */
export function useFormSubmit<T>(
  { validate, send, successKey, onDone, admin = false, instant = false, codeFields = {} }:
    SubmitOptions<T>,
): FormSubmit<T> {
  const { t } = useTranslation();
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [saving, setSaving] = useState(false);
  // The state is a render late inside one click: the ref stops a second send at once.
  const busy = useRef(false);
  const submit = async (): Promise<T | null> => {
    if (busy.current) return null;
    const local = validate?.() ?? {};
    setErrors(Object.fromEntries(
      Object.entries(local).map(([f, p]) => [f, typeof p === "string" ? t(p) : t(p.key, p.values)]),
    ));
    if (Object.keys(local).length) return null;
    busy.current = true;
    setSaving(true);
    const delay = instant ? 0 : admin ? ADMIN_SUBMIT_DELAY_MS : FORM_SUBMIT_DELAY_MS;
    if (delay) await new Promise((r) => setTimeout(r, delay));
    try {
      const saved = await send();
      if (successKey) toast.success({ key: successKey });
      onDone(saved);
      return saved;
    } catch (error) {
      const said = refusal(error, codeFields, (key) => t(key));
      if (said.fields) setErrors(said.fields);
      if (said.toast) toast.error(error);
      return null;
    } finally {
      busy.current = false;
      setSaving(false);
    }
  };
  const clearError = (name: string) =>
    setErrors((old) => (old[name] ? { ...old, [name]: "" } : old));
  return {
    errors,
    setErrors,
    clearError,
    saving,
    submit,
    onSubmit: (event) => {
      event.preventDefault();
      void submit();
    },
    bind: (name, value, set) => ({
      name,
      value,
      onChange: (event) => {
        set(event.target.value);
        clearError(name);
      },
      error: errors[name] || undefined,
    }),
  };
}

/** POST `<path>` for a new record (`id` null), else PUT `<path>/<id>`; errors left to the form. */
export function saveRecord<T>(path: string, id: number | null, body: unknown): Promise<T> {
  return id === null
    ? api.post<T>(path, body, { quiet: true })
    : api.put<T>(`${path}/${id}`, body, { quiet: true });
}
