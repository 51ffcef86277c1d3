import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { api } from "../lib/api.ts";
import type { ContactListView } from "../../contract/campaign_types.ts";
import { FormDialog, saveRecord, useFormSubmit } from "../lib/list/FormDialog.tsx";
import { Field } from "../lib/ui/Field.tsx";
import { check, length, LIMITS } from "../../contract/validation.ts";

/** Add or rename a contact list (seeds/002 section 5: name 2 to 50, required). */
export function ListDialog(
  { open, onOpenChange, listId, onSaved }: {
    open: boolean;
    onOpenChange: (open: boolean) => void;
    listId: number | null;
    onSaved: (list: ContactListView) => void;
  },
) {
  const { t } = useTranslation();
  const [name, setName] = useState("");
  const form = useFormSubmit({
    validate: () => check({ name }, { name: length(LIMITS.name) }),
    send: () => saveRecord<ContactListView>("/contact-lists", listId, { name: name.trim() }),
    successKey: "contactLists.saved",
    onDone: (saved) => {
      onSaved(saved);
      onOpenChange(false);
    },
  });
  useEffect(() => {
    if (!open) return;
    setName("");
    form.setErrors({});
    if (listId !== null) {
      api.get<ContactListView>(`/contact-lists/${listId}`).then((l) => setName(l.name)).catch(
        () => {},
      );
    }
  }, [open, listId]);
  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      title={listId === null ? t("contactLists.add") : t("contactLists.edit")}
      formId="contact-list-form"
      form={form}
      submitLabel={t("common.save")}
    >
      <Field label={t("contactLists.name")} autoFocus {...form.bind("name", name, setName)} />
    </FormDialog>
  );
}
