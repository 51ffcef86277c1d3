import { useState } from "react";
import { useTranslation } from "react-i18next";
import { api } from "../lib/api.ts";
import { FormDialog } from "../lib/list/FormDialog.tsx";
import { useFormSubmit } from "../lib/list/form_submit.ts";
import { SearchPick } from "../lib/ui/SearchPick.tsx";
import { toast } from "../lib/toast.ts";
import type { Contact, ForwardResult } from "../../contract/ticket_types.ts";
import { LIMITS } from "../../contract/validation.ts";
import { icon } from "../lib/ui/icon.tsx";

const X = icon("x");

/**
 * Forward the selected messages (issue 28): contacts chosen one at a time with the contact
 * picker of the new-ticket dialog; POST /api/messages/forward. Each contact refused (another
 * attendant's ticket...) is said by name with the server's reason; the others went. A refusal
 * loses nothing: the dialog and the chosen messages stay, with only the refused contacts listed,
 * to drop them or choose others.
 */
export function ForwardDialog(
  { messageIds, onOpenChange, onDone }: {
    open: boolean;
    messageIds: number[];
    onOpenChange: (open: boolean) => void;
    onDone: () => void;
  },
) {
  const { t } = useTranslation();
  const [contacts, setContacts] = useState<Contact[]>([]);
  // One key per request: a submit retried after a lost answer is not forwarded twice; after an
  // answer, the next submit (other contacts) is another request.
  const [idempotencyKey, setIdempotencyKey] = useState(() => crypto.randomUUID());
  const form = useFormSubmit({
    validate: (): Record<string, string> =>
      contacts.length === 0 ? { contacts: "tickets.messageTools.contactsRequired" } : {},
    send: () =>
      api.post<{ results: ForwardResult[] }>("/messages/forward", {
        messageIds,
        contactIds: contacts.map((c) => c.id),
      }, { quiet: true, headers: { "idempotency-key": idempotencyKey } }),
    onDone: ({ results }) => {
      const went = results.filter((r) => "ticketId" in r).length;
      if (went > 0) toast.success(t("tickets.messageTools.forwardDone", { count: went }));
      const refused = new Set<number>();
      for (const result of results) {
        if (!("error" in result)) continue;
        refused.add(result.contactId);
        const contact = contacts.find((c) => c.id === result.contactId);
        const reason = t(`errors.${result.error}`, { defaultValue: result.message });
        toast.error(t("tickets.messageTools.forwardRefused", { name: contact?.name, reason }));
      }
      if (refused.size === 0) return onDone();
      setContacts(contacts.filter((c) => refused.has(c.id)));
      setIdempotencyKey(crypto.randomUUID());
    },
  });
  return (
    <FormDialog
      form={form}
      onOpenChange={onOpenChange}
      id="forward"
      title={t("tickets.messageTools.forwardTitle")}
      description={t("tickets.messageTools.selected", { count: messageIds.length })}
      submitLabel={t("tickets.messageTools.forward")}
      width={480}
      formClassName=""
    >
      <SearchPick<Contact>
        label={t("tickets.messageTools.forwardTo")}
        placeholder={t("tickets.messageTools.contactPlaceholder")}
        path="/contacts"
        listKey="contacts"
        value={null}
        onChange={(contact) => {
          if (!contact || contacts.some((c) => c.id === contact.id)) return;
          if (contacts.length >= LIMITS.forwardContacts.max) return;
          setContacts([...contacts, contact]);
          form.clearError("contacts");
        }}
        describe={(c) => ({ title: c.name, sub: c.number })}
        testId="forward-contact"
        error={form.errors.contacts}
      />
      <ul className="mt-chips" data-testid="forward-contacts">
        {contacts.map((contact) => (
          <li key={contact.id} className="mt-chip">
            <span>{contact.name}</span>
            <button
              type="button"
              className="icon-btn"
              aria-label={t("tickets.messageTools.removeContact", { name: contact.name })}
              onClick={() => setContacts(contacts.filter((c) => c.id !== contact.id))}
            >
              <X size={14} aria-hidden="true" />
            </button>
          </li>
        ))}
      </ul>
    </FormDialog>
  );
}
