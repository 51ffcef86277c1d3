import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { api } from "../lib/api.ts";
import type { ContactListItemView } from "../../contract/campaign_types.ts";
import { CONTACT_RULES } from "../lib/contact/ContactDialog.tsx";
import { FormDialog, saveRecord, useFormSubmit } from "../lib/list/FormDialog.tsx";
import { Field } from "../lib/ui/Field.tsx";
import { check } from "../../contract/validation.ts";

/** An item of a contact list: name, number and email (seeds/002 sections 2.4 and 5). */
export function ItemDialog(
  { open, onOpenChange, itemId, contactListId, onSaved }: {
    open: boolean;
    onOpenChange: (open: boolean) => void;
    itemId: number | null;
    contactListId: number;
    onSaved: (item: ContactListItemView) => void;
  },
) {
  const { t } = useTranslation();
  const [name, setName] = useState("");
  const [number, setNumber] = useState("");
  const [email, setEmail] = useState("");
  const form = useFormSubmit({
    validate: () => check({ name, number, email }, CONTACT_RULES),
    send: () =>
      saveRecord<ContactListItemView>("/contact-list-items", itemId, {
        name: name.trim(),
        number: number.trim(),
        email: email.trim(),
        ...(itemId === null ? { contactListId } : {}),
      }),
    successKey: "contactLists.itemSaved",
    onDone: (saved) => {
      onSaved(saved);
      onOpenChange(false);
    },
  });
  useEffect(() => {
    if (!open) return;
    setName("");
    setNumber("");
    setEmail("");
    form.setErrors({});
    if (itemId !== null) {
      api.get<ContactListItemView>(`/contact-list-items/${itemId}`).then((item) => {
        setName(item.name);
        setNumber(item.number);
        setEmail(item.email);
      }).catch(() => {});
    }
  }, [open, itemId]);
  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      title={itemId === null ? t("contactLists.addItem") : t("contactLists.editItem")}
      formId="contact-list-item-form"
      form={form}
      submitLabel={t("common.save")}
    >
      <Field label={t("contactLists.name")} autoFocus {...form.bind("name", name, setName)} />
      <Field label={t("contactLists.number")} {...form.bind("number", number, setNumber)} />
      <Field label={t("contactLists.email")} {...form.bind("email", email, setEmail)} />
    </FormDialog>
  );
}
