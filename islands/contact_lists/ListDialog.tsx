import { useTranslation } from "react-i18next";
import type { ContactListView } from "../../contract/campaign_types.ts";
import { FormDialog } from "../lib/list/FormDialog.tsx";
import { type RecordDialogProps, useRecordForm } from "../lib/list/record_form.ts";
import { Field } from "../lib/ui/Field.tsx";
import { length, LIMITS } from "../../contract/validation.ts";

/** Add or rename a contact list (seeds/002 section 5: name 2 to 50, required). */
export function ListDialog(dialog: RecordDialogProps<ContactListView>) {
  const { t } = useTranslation();
  const form = useRecordForm(dialog, {
    path: "/contact-lists",
    empty: { name: "" },
    rules: { name: length(LIMITS.name) },
    body: ({ name }) => ({ name: name.trim() }),
    successKey: "contactLists.saved",
  });
  return (
    <FormDialog
      form={form}
      title={t(dialog.id === null ? "contactLists.add" : "contactLists.edit")}
      id="contact-list"
      submitLabel={t("common.save")}
    >
      <Field label={t("contactLists.name")} autoFocus {...form.field("name")} />
    </FormDialog>
  );
}
