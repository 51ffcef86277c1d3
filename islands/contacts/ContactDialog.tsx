import { type FormEvent, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { Plus, Trash2 } from "lucide-react";
import { api } from "../lib/api.ts";
import { ApiError } from "../lib/errors.ts";
import { toast } from "../lib/toast.ts";
import { Button, IconButton } from "../lib/ui/Button.tsx";
import { Field } from "../lib/ui/Field.tsx";
import { Modal } from "../lib/ui/Modal.tsx";
import type { Contact, ExtraInfo } from "../lib/people_types.ts";
import { check, email, length } from "../lib/validation.ts";
import { formSubmitDelay } from "../lib/form_delay.ts";

/** seeds/000 section 5 'Contact form': name 2..50, number 8..50, email valid when given. */
const RULES = { name: length(2, 50), number: length(8, 50), email: email(false) };

/** Server field errors (already texts) by field, first message each. */
export function fieldErrors(error: unknown): Record<string, string> | null {
  if (!(error instanceof ApiError) || !Object.keys(error.fields).length) return null;
  return Object.fromEntries(
    Object.entries(error.fields).map(([field, messages]) => [field, messages[0] ?? ""]),
  );
}

/**
 * Add or edit a contact (`contactId` null adds) with its extra fields; answers the saved contact
 * through `onSaved`. Server errors: field errors under the fields, codes
 * (ERR_DUPLICATED_CONTACT, ERR_WAPP_INVALID_CONTACT) as translated toasts.
 */
export function ContactDialog(
  { open, onOpenChange, contactId, onSaved }: {
    open: boolean;
    onOpenChange: (open: boolean) => void;
    contactId: number | null;
    onSaved?: (contact: Contact) => void;
  },
) {
  const { t } = useTranslation();
  const [name, setName] = useState("");
  const [number, setNumber] = useState("");
  const [mail, setMail] = useState("");
  const [extra, setExtra] = useState<ExtraInfo[]>([]);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [saving, setSaving] = useState(false);
  const [loading, setLoading] = useState(false);

  useEffect(() => {
    if (!open) return;
    setErrors({});
    setName("");
    setNumber("");
    setMail("");
    setExtra([]);
    if (contactId === null) return;
    setLoading(true);
    api.get<Contact>(`/contacts/${contactId}`).then((c) => {
      setName(c.name);
      setNumber(c.number);
      setMail(c.email ?? "");
      setExtra(c.extraInfo ?? []);
    }).catch(() => onOpenChange(false)).finally(() => setLoading(false));
  }, [open, contactId]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (saving) return;
    const local = check({ name, number, email: mail }, RULES);
    setErrors(Object.fromEntries(Object.entries(local).map(([f, key]) => [f, t(key)])));
    if (Object.keys(local).length) return;
    setSaving(true);
    await formSubmitDelay();
    try {
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
      const saved = contactId === null
        ? await api.post<Contact>("/contacts", body, { quiet: true })
        : await api.put<Contact>(`/contacts/${contactId}`, body, { quiet: true });
      toast.success({ key: "contacts.saved" });
      onSaved?.(saved);
      onOpenChange(false);
    } catch (error) {
      const fields = fieldErrors(error);
      if (fields) setErrors(fields);
      // A code with a translation says it best (invalid number, duplicate); else the fields do.
      if (!fields || (error instanceof ApiError && error.code !== "ERR_VALIDATION")) {
        toast.error(error);
      }
    } finally {
      setSaving(false);
    }
  };

  const setExtraAt = (i: number, patch: Partial<ExtraInfo>) =>
    setExtra((list) => list.map((e, j) => (j === i ? { ...e, ...patch } : e)));

  return (
    <Modal
      open={open}
      onOpenChange={onOpenChange}
      width={560}
      title={contactId === null ? t("contacts.addTitle") : t("contacts.editTitle")}
      footer={
        <>
          <Button variant="ghost" onClick={() => onOpenChange(false)}>{t("common.cancel")}</Button>
          <Button
            variant="primary"
            type="submit"
            form="contact-form"
            loading={saving}
            disabled={loading}
          >
            {contactId === null ? t("common.add") : t("common.save")}
          </Button>
        </>
      }
    >
      <form id="contact-form" className="people-form" onSubmit={submit} noValidate>
        <Field
          label={t("contacts.name")}
          name="name"
          value={name}
          onChange={(e) => setName(e.target.value)}
          error={errors.name}
          autoFocus
        />
        <Field
          label={t("contacts.number")}
          name="number"
          inputMode="tel"
          placeholder="5513912344321"
          value={number}
          onChange={(e) => setNumber(e.target.value)}
          error={errors.number}
        />
        <Field
          label={t("contacts.email")}
          name="email"
          type="email"
          placeholder={t("contacts.emailPlaceholder")}
          value={mail}
          onChange={(e) => setMail(e.target.value)}
          error={errors.email}
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
      </form>
    </Modal>
  );
}
