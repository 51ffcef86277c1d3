import { type FormEvent, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { Plus, Trash2 } from "lucide-react";
import { api } from "../lib/api.ts";
import { ApiError } from "../lib/errors.ts";
import { toast } from "../lib/toast.ts";
import { Button, IconButton } from "../lib/ui/Button.tsx";
import { Field } from "../lib/ui/Field.tsx";
import { Modal } from "../lib/ui/Modal.tsx";
import { submitDelay } from "./format.ts";
import type { Contact, ExtraInfo } from "./types.ts";

type Errors = Partial<Record<"name" | "number" | "email", string>>;

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** seeds/000 section 5 'Contact form': name 2 to 50, number 8 to 50, email valid. */
export function contactErrors(form: { name: string; number: string; email: string }): Errors {
  const errors: Errors = {};
  const name = form.name.trim();
  if (!name) errors.name = "Required";
  else if (name.length < 2) errors.name = "Too Short!";
  else if (name.length > 50) errors.name = "Too Long!";
  const number = form.number.trim();
  if (!number) errors.number = "Required";
  else if (number.length < 8) errors.number = "Too Short!";
  else if (number.length > 50) errors.number = "Too Long!";
  if (form.email.trim() && !EMAIL.test(form.email.trim())) errors.email = "Invalid email";
  return errors;
}

/**
 * Adds or edits a contact (seeds/000 sections 2 and 5): name, number, email and extra
 * information; on save a 'contact saved' toast.
 */
export default function ContactFormDialog(
  { contact, initialName, onClose, onSaved }: {
    /** The contact to edit; absent to add one. */
    contact?: Contact | null;
    /** A name to start a new contact with (what was typed in a search). */
    initialName?: string;
    onClose: () => void;
    onSaved: (contact: Contact) => void;
  },
) {
  const { t } = useTranslation();
  const [name, setName] = useState(contact?.name ?? "");
  const [number, setNumber] = useState(contact?.number ?? "");
  const [email, setEmail] = useState(contact?.email ?? "");
  const [extra, setExtra] = useState<ExtraInfo[]>(contact?.extraInfo ?? []);
  const [errors, setErrors] = useState<Errors>({});
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    if (!contact && initialName) {
      // A search for digits is a number, anything else a name.
      if (/^[\d\s()+-]+$/.test(initialName)) setNumber(initialName.replace(/\D/g, ""));
      else setName(initialName);
    }
  }, []);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const found = contactErrors({ name, number, email });
    setErrors(found);
    if (Object.keys(found).length) return;
    setSaving(true);
    try {
      await submitDelay();
      const body = {
        name: name.trim(),
        number: number.trim(),
        email: email.trim(),
        extraInfo: extra.filter((e) => e.name.trim()).map((e) => ({
          ...(e.id ? { id: e.id } : {}),
          name: e.name.trim(),
          value: e.value.trim(),
        })),
      };
      const saved = contact
        ? await api.put<Contact>(`/contacts/${contact.id}`, body, { quiet: true })
        : await api.post<Contact>("/contacts", body, { quiet: true });
      toast.success({ key: "tickets.contact.saved" });
      onSaved(saved);
    } catch (error) {
      if (error instanceof ApiError && Object.keys(error.fields).length) {
        setErrors({
          name: error.fields.name?.[0],
          number: error.fields.number?.[0],
          email: error.fields.email?.[0],
        });
      }
      toast.error(error);
    } finally {
      setSaving(false);
    }
  };

  const setItem = (index: number, patch: Partial<ExtraInfo>) =>
    setExtra((old) => old.map((e, i) => i === index ? { ...e, ...patch } : e));

  return (
    <Modal
      open
      onOpenChange={(open) => !open && onClose()}
      title={contact ? t("tickets.contact.edit") : t("tickets.contact.add")}
      width={520}
      footer={
        <>
          <Button variant="ghost" onClick={onClose}>{t("common.cancel")}</Button>
          <Button variant="primary" type="submit" form="contact-form" loading={saving}>
            {t("common.save")}
          </Button>
        </>
      }
    >
      <form id="contact-form" onSubmit={submit} noValidate>
        <Field
          label={t("tickets.contact.name")}
          name="name"
          value={name}
          onChange={(e) => setName(e.target.value)}
          error={errors.name}
          autoFocus
        />
        <Field
          label={t("tickets.contact.number")}
          name="number"
          value={number}
          placeholder="5513912344321"
          inputMode="tel"
          onChange={(e) => setNumber(e.target.value)}
          error={errors.number}
        />
        <Field
          label={t("tickets.contact.email")}
          name="email"
          type="email"
          value={email}
          placeholder="email@exemplo.com"
          onChange={(e) => setEmail(e.target.value)}
          error={errors.email}
        />
        <div className="cf-extra">
          <div className="cf-extra-head">
            <span>{t("tickets.contact.extraInfo")}</span>
            <Button
              variant="ghost"
              onClick={() => setExtra((old) => [...old, { name: "", value: "" }])}
            >
              <Plus size={15} aria-hidden="true" />
              {t("tickets.contact.addInfo")}
            </Button>
          </div>
          {extra.map((item, index) => (
            <div className="cf-extra-row" key={item.id ?? `new-${index}`}>
              <input
                className="input"
                value={item.name}
                placeholder={t("tickets.contact.infoName")}
                aria-label={t("tickets.contact.infoName")}
                onChange={(e) => setItem(index, { name: e.target.value })}
              />
              <input
                className="input"
                value={item.value}
                placeholder={t("tickets.contact.infoValue")}
                aria-label={t("tickets.contact.infoValue")}
                onChange={(e) => setItem(index, { value: e.target.value })}
              />
              <IconButton
                label={t("common.delete")}
                onClick={() => setExtra((old) => old.filter((_, i) => i !== index))}
              >
                <Trash2 size={16} aria-hidden="true" />
              </IconButton>
            </div>
          ))}
        </div>
      </form>
    </Modal>
  );
}
