import { useTranslation } from "react-i18next";
import { Button, IconButton } from "../ui/Button.tsx";
import { Field } from "../ui/Field.tsx";
import { FormDialog } from "../list/FormDialog.tsx";
import { type RecordDialogProps, useRecordForm } from "../list/record_form.ts";
import type { Contact, ExtraInfo } from "../../../contract/people_types.ts";
import { email, length, LIMITS } from "../../../contract/validation.ts";
import { icon } from "../ui/icon.tsx";

const Plus = icon("plus");
const Trash2 = icon("trash-2");

/** seeds/000 section 5 'Contact form': name 2..50, number 8..50, email valid when given. */
export const CONTACT_RULES = {
  name: length(LIMITS.name),
  number: length(LIMITS.contactNumber),
  email: email(false),
};

/** A new contact from what was typed in a search: digits are its number, else its name. */
function startingWith(typed = "") {
  const digits = /^[\d\s()+-]+$/.test(typed);
  return {
    name: digits ? "" : typed,
    number: digits ? typed.replace(/\D/g, "") : "",
    email: "",
    extraInfo: [] as ExtraInfo[],
  };
}

/**
 * Add or edit a contact (`id` null adds) with its extra fields; answers the saved contact
 * through `onSaved`. Server errors: field errors under the fields, codes
 * (ERR_DUPLICATED_CONTACT, ERR_WAPP_INVALID_CONTACT) as translated toasts. Used by /contacts and,
 * loaded on demand, by the tickets page (new ticket, contact drawer).
 */
export function ContactDialog(
  { initialName, ...dialog }: RecordDialogProps<Contact> & {
    /** What was typed in a search, to start a new contact with. */
    initialName?: string;
  },
) {
  const { t } = useTranslation();
  const form = useRecordForm(dialog, {
    path: "/contacts",
    empty: startingWith(initialName),
    rules: CONTACT_RULES,
    body: ({ name, number, email, extraInfo }) => ({
      name: name.trim(),
      number: number.trim(),
      email: email.trim(),
      extraInfo: extraInfo.filter((e) => e.name.trim()).map((e) => ({
        ...(e.id ? { id: e.id } : {}),
        name: e.name.trim(),
        value: e.value.trim(),
      })),
    }),
    successKey: "contacts.saved",
  });
  const extra = form.values.extraInfo;
  const setExtra = (next: ExtraInfo[]) => form.set("extraInfo", next);
  const setExtraAt = (i: number, patch: Partial<ExtraInfo>) =>
    setExtra(extra.map((e, j) => (j === i ? { ...e, ...patch } : e)));

  return (
    <FormDialog form={form} width={560} texts="contacts" id="contact">
      <Field label={t("contacts.name")} {...form.field("name")} autoFocus />
      <Field
        label={t("contacts.number")}
        inputMode="tel"
        placeholder="5513912344321"
        {...form.field("number")}
      />
      <Field
        label={t("contacts.email")}
        type="email"
        placeholder={t("contacts.emailPlaceholder")}
        {...form.field("email")}
      />
      <fieldset className="people-extra">
        <legend>{t("contacts.extraInfo")}</legend>
        {extra.map((e, i) => (
          <div className="people-extra-row" key={e.id ?? `new-${i}`}>
            {(["name", "value"] as const).map((part) => (
              <input
                key={part}
                className="input"
                aria-label={t(part === "name" ? "contacts.extraName" : "contacts.extraValue")}
                placeholder={t(part === "name" ? "contacts.extraName" : "contacts.extraValue")}
                name={`extra-${part}-${i}`}
                value={e[part]}
                onChange={(ev) => setExtraAt(i, { [part]: ev.target.value })}
              />
            ))}
            <IconButton
              label={t("contacts.removeExtra")}
              onClick={() => setExtra(extra.filter((_, j) => j !== i))}
            >
              <Trash2 size={16} aria-hidden="true" />
            </IconButton>
          </div>
        ))}
        <Button variant="ghost" onClick={() => setExtra([...extra, { name: "", value: "" }])}>
          <Plus size={16} aria-hidden="true" /> {t("contacts.addExtra")}
        </Button>
      </fieldset>
    </FormDialog>
  );
}
