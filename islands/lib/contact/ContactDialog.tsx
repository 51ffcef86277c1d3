import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import Plus from "lucide-react/icons/plus";
import Trash2 from "lucide-react/icons/trash-2";
import { api } from "../api.ts";
import { Button, IconButton } from "../ui/Button.tsx";
import { Field } from "../ui/Field.tsx";
import { FormDialog, saveRecord, useFormSubmit } from "../list/FormDialog.tsx";
import type { Contact, ExtraInfo } from "../../../contract/people_types.ts";
import { check, email, length, LIMITS } from "../../../contract/validation.ts";

/** seeds/000 section 5 'Contact form': name 2..50, number 8..50, email valid when given. */
export const CONTACT_RULES = {
  name: length(LIMITS.name),
  number: length(LIMITS.contactNumber),
  email: email(false),
};

/**
 * Add or edit a contact (`contactId` null adds) with its extra fields; answers the saved contact
 * through `onSaved`. Server errors: field errors under the fields, codes
 * (ERR_DUPLICATED_CONTACT, ERR_WAPP_INVALID_CONTACT) as translated toasts. Used by /contacts and,
 * loaded on demand, by the tickets page (new ticket, contact drawer).
 */
export default function ContactDialog(
  { open, onOpenChange, contactId, initialName, onSaved }: {
    open: boolean;
    onOpenChange: (open: boolean) => void;
    contactId: number | null;
    /** What was typed in a search, to start a new contact with: digits are a number. */
    initialName?: string;
    onSaved?: (contact: Contact) => void;
  },
) {
  const { t } = useTranslation();
  const [name, setName] = useState("");
  const [number, setNumber] = useState("");
  const [mail, setMail] = useState("");
  const [extra, setExtra] = useState<ExtraInfo[]>([]);
  const [loading, setLoading] = useState(false);
  const form = useFormSubmit({
    validate: () => check({ name, number, email: mail }, CONTACT_RULES),
    send: () => {
      const body = {
        name: name.trim(),
        number: number.trim(),
        email: mail.trim(),
        extraInfo: extra.filter((e) => e.name.trim()).map((e) => ({
          ...(e.id ? { id: e.id } : {}),
          name: e.name.trim(),
          value: e.value.trim(),
        })),
      };
      return saveRecord<Contact>("/contacts", contactId, body);
    },
    successKey: "contacts.saved",
    onDone: (saved) => {
      onSaved?.(saved);
      onOpenChange(false);
    },
  });

  useEffect(() => {
    if (!open) return;
    form.setErrors({});
    setName("");
    setNumber("");
    setMail("");
    setExtra([]);
    if (contactId === null) {
      if (initialName && /^[\d\s()+-]+$/.test(initialName)) {
        setNumber(initialName.replace(/\D/g, ""));
      } else if (initialName) setName(initialName);
      return;
    }
    setLoading(true);
    api.get<Contact>(`/contacts/${contactId}`).then((c) => {
      setName(c.name);
      setNumber(c.number);
      setMail(c.email ?? "");
      setExtra(c.extraInfo ?? []);
    }).catch(() => onOpenChange(false)).finally(() => setLoading(false));
  }, [open, contactId]);

  const setExtraAt = (i: number, patch: Partial<ExtraInfo>) =>
    setExtra((list) => list.map((e, j) => (j === i ? { ...e, ...patch } : e)));

  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      width={560}
      title={contactId === null ? t("contacts.addTitle") : t("contacts.editTitle")}
      formId="contact-form"
      form={form}
      submitLabel={contactId === null ? t("common.add") : t("common.save")}
      disabled={loading}
    >
      <Field
        label={t("contacts.name")}
        {...form.bind("name", name, setName)}
        autoFocus
      />
      <Field
        label={t("contacts.number")}
        inputMode="tel"
        placeholder="5513912344321"
        {...form.bind("number", number, setNumber)}
      />
      <Field
        label={t("contacts.email")}
        type="email"
        placeholder={t("contacts.emailPlaceholder")}
        {...form.bind("email", mail, setMail)}
      />
      <fieldset className="people-extra">
        <legend>{t("contacts.extraInfo")}</legend>
        {extra.map((e, i) => (
          <div className="people-extra-row" key={e.id ?? `new-${i}`}>
            <input
              className="input"
              aria-label={t("contacts.extraName")}
              placeholder={t("contacts.extraName")}
              name={`extra-name-${i}`}
              value={e.name}
              onChange={(ev) => setExtraAt(i, { name: ev.target.value })}
            />
            <input
              className="input"
              aria-label={t("contacts.extraValue")}
              placeholder={t("contacts.extraValue")}
              name={`extra-value-${i}`}
              value={e.value}
              onChange={(ev) => setExtraAt(i, { value: ev.target.value })}
            />
            <IconButton
              label={t("contacts.removeExtra")}
              onClick={() => setExtra((list) => list.filter((_, j) => j !== i))}
            >
              <Trash2 size={16} aria-hidden="true" />
            </IconButton>
          </div>
        ))}
        <Button
          variant="ghost"
          onClick={() => setExtra((list) => [...list, { name: "", value: "" }])}
        >
          <Plus size={16} aria-hidden="true" /> {t("contacts.addExtra")}
        </Button>
      </fieldset>
    </FormDialog>
  );
}
