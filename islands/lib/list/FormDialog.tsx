import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Button } from "../ui/Button.tsx";
import { Modal } from "../ui/Modal.tsx";
import type { FormSubmit } from "./form_submit.ts";

/** What FormDialog needs of a form: its submit, and (a record form's) its dialog state. */
export type DialogForm = Pick<FormSubmit, "saving" | "onSubmit"> & {
  open?: boolean;
  onOpenChange?: (open: boolean) => void;
  loading?: boolean;
  isNew?: boolean;
};

/**
 * A dialog holding one form: Cancel and the busy submit button in the footer, the fields inside.
 *   const form = useRecordForm(props, { path: "/tags", empty, body, successKey: "tags.saved" });
 *   <FormDialog form={form} id="tag" texts="tags">
 *     <Field label={t("tags.name")} {...form.field("name")} />
 *   </FormDialog>
 * `id` names the form (`<id>-form`) and its submit button's test id (`<id>-submit`); the title is
 * `title`, or the `texts` area's addTitle/editTitle. A record form brings open/onOpenChange,
 * `disabled` while its record loads, and the submit label ('Adicionar' for a new record, else
 * 'Salvar'); a plain useFormSubmit form passes them.
 */
export function FormDialog(
  {
    form,
    open = form.open ?? true,
    onOpenChange = form.onOpenChange ?? (() => {}),
    id,
    title,
    texts,
    description,
    submitLabel,
    submitTestId = `${id}-submit`,
    width,
    disabled = form.loading,
    readOnly = false,
    formClassName = "people-form",
    formTestId,
    bare = false,
    footer,
    children,
  }: {
    form: DialogForm;
    open?: boolean;
    onOpenChange?: (open: boolean) => void;
    id: string;
    title?: ReactNode;
    /** The i18n area of the title: `<texts>.addTitle` for a new record, else `<texts>.editTitle`. */
    texts?: string;
    description?: ReactNode;
    submitLabel?: string;
    submitTestId?: string;
    width?: number;
    /** While the record loads: nothing to submit yet. */
    disabled?: boolean;
    /** Nothing may change (e.g. a schedule already sent): no submit button at all. */
    readOnly?: boolean;
    formClassName?: string;
    formTestId?: string;
    /** The children hold the `<form id="<id>-form">` themselves (beside a form of their own). */
    bare?: boolean;
    /** The footer instead of Cancel and the submit (e.g. only 'Close' once it is done). */
    footer?: ReactNode;
    children: ReactNode;
  },
) {
  const { t } = useTranslation();
  const label = submitLabel ?? t(form.isNew ? "common.add" : "common.save");
  const formId = `${id}-form`;
  return (
    <Modal
      open={open}
      onOpenChange={onOpenChange}
      width={width}
      title={title ?? t(`${texts}.${form.isNew ? "addTitle" : "editTitle"}`)}
      description={description}
      footer={footer ?? (
        <>
          <Button variant="ghost" onClick={() => onOpenChange(false)}>{t("common.cancel")}</Button>
          {readOnly ? null : (
            // Keyed: a button swapped in for it (another step's) must not become it mid-click.
            <Button
              key="submit"
              variant="primary"
              type="submit"
              form={formId}
              loading={form.saving}
              disabled={disabled}
              data-testid={submitTestId}
            >
              {label}
            </Button>
          )}
        </>
      )}
    >
      {bare ? children : (
        <form
          id={formId}
          className={formClassName}
          onSubmit={form.onSubmit}
          noValidate
          data-testid={formTestId}
        >
          {children}
        </form>
      )}
    </Modal>
  );
}
