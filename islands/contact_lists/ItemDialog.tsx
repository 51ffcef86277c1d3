import { useTranslation } from "react-i18next";
import type { ContactListItemView } from "../../contract/campaign_types.ts";
import { CONTACT_RULES } from "../lib/contact/ContactDialog.tsx";
import { FormDialog } from "../lib/list/FormDialog.tsx";
import { type RecordDialogProps, useRecordForm } from "../lib/list/record_form.ts";
import { Field } from "../lib/ui/Field.tsx";

/** An item of a contact list: name, number and email (seeds/002 sections 2.4 and 5). */
export function ItemDialog(
  { contactListId, ...dialog }: RecordDialogProps<ContactListItemView> & { contactListId: number },
) {
  const { t } = useTranslation();
  const form = useRecordForm(dialog, {
    path: "/contact-list-items",
    empty: { name: "", number: "", email: "" },
    rules: CONTACT_RULES,
    body: ({ name, number, email }) => ({
      name: name.trim(),
      number: number.trim(),
      email: email.trim(),
      ...(dialog.id === null ? { contactListId } : {}),
    }),
    successKey: "contactLists.itemSaved",
  });
  return (
    <FormDialog
      form={form}
      title={t(dialog.id === null ? "contactLists.addItem" : "contactLists.editItem")}
      id="contact-list-item"
      submitLabel={t("common.save")}
    >
      <Field label={t("contactLists.name")} autoFocus {...form.field("name")} />
      <Field label={t("contactLists.number")} {...form.field("number")} />
      <Field label={t("contactLists.email")} {...form.field("email")} />
    </FormDialog>
  );
}
