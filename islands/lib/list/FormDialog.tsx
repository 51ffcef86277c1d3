import { type FormEvent, type ReactNode, useState } from "react";
import { useTranslation } from "react-i18next";
import { api } from "../api.ts";
import { ApiError, fieldErrors } from "../errors.ts";
import { ADMIN_SUBMIT_DELAY_MS, FORM_SUBMIT_DELAY_MS } from "../form_delay.ts";
import { toast } from "../toast.ts";
import { Button } from "../ui/Button.tsx";
import { Modal } from "../ui/Modal.tsx";

export type FormSubmit = {
  /** Field name -> text shown under that field (local rules first, then the server's). */
  errors: Record<string, string>;
  setErrors: (errors: Record<string, string>) => void;
  saving: boolean;
  onSubmit: (event: FormEvent) => void;
  /** A text field's props: `<Field label=... {...form.bind("name", name, setName)} />`. */
  bind: (name: string, value: string, set: (value: string) => void) => {
    name: string;
    value: string;
    onChange: (event: { target: { value: string } }) => void;
    error: string | undefined;
  };
};

/**
 * The submit of a form dialog (seeds/000 and seeds/001 section 9, section 8):
 * - `validate` runs first; its answer (field -> i18n key) is shown under the fields and stops;
 * - then the button stays busy for the submit delay (400 ms; `admin`: 500 ms) before `send`, so a
 *   double click sends once;
 * - success: the `successKey` toast (if given), then `onDone(saved)`;
 * - failure: `ERR_VALIDATION` fields under their inputs; any other code as a translated toast;
 *   the dialog stays open with what was typed.
 */
export function useFormSubmit<T>(
  { validate, send, successKey, onDone, admin = false }: {
    validate?: () => Record<string, string>;
    send: () => Promise<T>;
    successKey?: string;
    onDone: (saved: T) => void;
    admin?: boolean;
  },
): FormSubmit {
  const { t } = useTranslation();
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [saving, setSaving] = useState(false);
  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (saving) return;
    const local = validate?.() ?? {};
    setErrors(Object.fromEntries(Object.entries(local).map(([f, key]) => [f, t(key)])));
    if (Object.keys(local).length) return;
    setSaving(true);
    await new Promise((r) => setTimeout(r, admin ? ADMIN_SUBMIT_DELAY_MS : FORM_SUBMIT_DELAY_MS));
    try {
      const saved = await send();
      if (successKey) toast.success({ key: successKey });
      onDone(saved);
    } catch (error) {
      const fields = fieldErrors(error);
      if (fields) setErrors(fields);
      // A code with a translation says it best (a duplicate, an invalid number); else the fields.
      if (!fields || (error instanceof ApiError && error.code !== "ERR_VALIDATION")) {
        toast.error(error);
      }
    } finally {
      setSaving(false);
    }
  };
  return {
    errors,
    setErrors,
    saving,
    onSubmit: (e) => void onSubmit(e),
    bind: (name, value, set) => ({
      name,
      value,
      onChange: (event) => set(event.target.value),
      error: errors[name],
    }),
  };
}

/** POST `<path>` for a new record (`id` null), else PUT `<path>/<id>`; errors left to the form. */
export function saveRecord<T>(path: string, id: number | null, body: unknown): Promise<T> {
  return id === null
    ? api.post<T>(path, body, { quiet: true })
    : api.put<T>(`${path}/${id}`, body, { quiet: true });
}

/**
 * A dialog holding one form: Cancel and the busy submit button in the footer, the fields inside.
 *   const form = useFormSubmit({ validate, send, successKey: "tags.saved", onDone });
 *   <FormDialog open={open} onOpenChange={setOpen} title={...} formId="tag-form" form={form}>
 *     <Field name="name" error={form.errors.name} ... />
 *   </FormDialog>
 */
export function FormDialog(
  {
    open = true,
    onOpenChange,
    title,
    description,
    formId,
    form,
    submitLabel,
    submitTestId,
    width,
    disabled,
    readOnly = false,
    formClassName = "people-form",
    children,
  }: {
    open?: boolean;
    onOpenChange: (open: boolean) => void;
    title: ReactNode;
    description?: ReactNode;
    formId: string;
    /** useFormSubmit's answer, or a dialog's own `{ saving, onSubmit }`. */
    form: Pick<FormSubmit, "saving" | "onSubmit">;
    submitLabel: string;
    submitTestId?: string;
    width?: number;
    /** While the record loads: nothing to submit yet. */
    disabled?: boolean;
    /** Nothing may change (e.g. a schedule already sent): no submit button at all. */
    readOnly?: boolean;
    formClassName?: string;
    children: ReactNode;
  },
) {
  const { t } = useTranslation();
  return (
    <Modal
      open={open}
      onOpenChange={onOpenChange}
      width={width}
      title={title}
      description={description}
      footer={
        <>
          <Button variant="ghost" onClick={() => onOpenChange(false)}>{t("common.cancel")}</Button>
          {readOnly ? null : (
            <Button
              variant="primary"
              type="submit"
              form={formId}
              loading={form.saving}
              disabled={disabled}
              data-testid={submitTestId}
            >
              {submitLabel}
            </Button>
          )}
        </>
      }
    >
      <form id={formId} className={formClassName} onSubmit={form.onSubmit} noValidate>
        {children}
      </form>
    </Modal>
  );
}
