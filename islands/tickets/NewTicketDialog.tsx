import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { api } from "../lib/api.ts";
import { ApiError } from "../lib/errors.ts";
import { useUser } from "../lib/session.ts";
import { can } from "../lib/permissions.ts";
import { FormDialog } from "../lib/list/FormDialog.tsx";
import { useFormSubmit } from "../lib/list/form_submit.ts";
import { SelectField } from "../lib/ui/Select.tsx";
import { parseOtherTicket } from "./format.ts";
import { SearchPick } from "../lib/ui/SearchPick.tsx";
import type {
  Contact,
  OtherOpenTicket,
  Ticket,
  WhatsappOption,
} from "../../contract/ticket_types.ts";
import { useLookup } from "../lib/use_lookup.ts";
import { whenOpen } from "../lib/ui/deferred.tsx";
import { icon } from "../lib/ui/icon.tsx";

const UserPlus = icon("user-plus");

const ContactDialog = whenOpen(() =>
  import("../lib/contact/ContactDialog.tsx").then((m) => m.ContactDialog)
);

const NONE = "none";

/** The connection to prefill: the user's default, else the company's default, else the only one. */
export function defaultConnection(
  connections: WhatsappOption[],
  userWhatsappId: number | null,
): number | null {
  if (userWhatsappId !== null && connections.some((c) => c.id === userWhatsappId)) {
    return userWhatsappId;
  }
  return connections.find((c) => c.isDefault)?.id ??
    (connections.length === 1 ? connections[0].id : null);
}

/**
 * New ticket (seeds/000 sections 2, 5, 8, 9): a contact found from 3 typed characters (or added
 * on the spot), a queue (required for users: 'Selecione uma fila'), a connection; the user's
 * default connection and their single queue come prefilled. When the contact already has an
 * open ticket: the user's own is opened; another attendant's is named with its queue.
 */
export default function NewTicketDialog(
  { onClose, onOpenTicket }: { onClose: () => void; onOpenTicket: (uuid: string) => void },
) {
  const { t } = useTranslation();
  const user = useUser();
  const skipQueue = can(user, "ticket:skip-queue");
  const [contact, setContact] = useState<Contact | null>(null);
  const [queue, setQueue] = useState<string>(
    user.queues.length === 1 ? String(user.queues[0].id) : NONE,
  );
  const [whatsapp, setWhatsapp] = useState<string>("");
  const [other, setOther] = useState<OtherOpenTicket | null>(null);
  const [adding, setAdding] = useState<string | null>(null);
  const connections = useLookup<WhatsappOption>("/whatsapp", "whatsapps", { session: 0 });

  useEffect(() => {
    if (!connections.ready || whatsapp) return;
    const id = defaultConnection(connections.items, user.whatsappId);
    if (id !== null) setWhatsapp(String(id));
  }, [connections.ready]);

  const form = useFormSubmit({
    validate: () => {
      setOther(null);
      const found: Record<string, string> = {};
      if (!contact) found.contact = "tickets.newTicket.contactRequired";
      if (queue === NONE && !skipQueue) found.queueId = "tickets.newTicket.queueRequired";
      return found;
    },
    send: async (): Promise<{ uuid?: string; other?: OtherOpenTicket }> => {
      try {
        const ticket = await api.post<Ticket>("/tickets", {
          contactId: contact!.id,
          queueId: queue === NONE ? null : Number(queue),
          whatsappId: whatsapp ? Number(whatsapp) : null,
          userId: user.id,
          status: "open",
        }, { quiet: true });
        return { uuid: ticket.uuid };
      } catch (error) {
        // The contact already has an open ticket: open it if it is mine, else say whose it is.
        const existing = error instanceof ApiError && error.code === "ERR_OTHER_OPEN_TICKET"
          ? parseOtherTicket(error.message)
          : null;
        if (existing && existing.userId === user.id && existing.uuid) {
          return { uuid: existing.uuid };
        }
        if (existing) return { other: existing };
        throw error;
      }
    },
    onDone: (result) => {
      if (result.uuid) onOpenTicket(result.uuid);
      else if (result.other) setOther(result.other);
    },
  });
  const errors = form.errors;

  const queueOptions = [
    ...(skipQueue ? [{ value: NONE, label: t("tickets.noQueue") }] : []),
    ...user.queues.map((q) => ({ value: String(q.id), label: q.name })),
  ];

  return (
    <>
      <FormDialog
        open={adding === null}
        onOpenChange={(open) => !open && onClose()}
        title={t("tickets.newTicket.title")}
        width={480}
        id="new-ticket"
        form={form}
        submitLabel={t("tickets.newTicket.submit")}
        formClassName=""
      >
        <SearchPick<Contact>
          label={t("tickets.newTicket.contact")}
          placeholder={t("tickets.newTicket.contactPlaceholder")}
          path="/contacts"
          listKey="contacts"
          value={contact}
          onChange={(c) => {
            setContact(c);
            setOther(null);
          }}
          describe={(c) => ({ title: c.name, sub: c.number })}
          extra={(text) =>
            text.length >= 3
              ? {
                label: (
                  <>
                    <UserPlus size={15} aria-hidden="true" />
                    {t("tickets.newTicket.addContact", { name: text })}
                  </>
                ),
                onPick: () => setAdding(text),
              }
              : null}
          testId="new-ticket-contact"
          error={errors.contact}
        />
        <SelectField
          label={t("tickets.newTicket.queue")}
          name="queueId"
          value={queue === NONE && !skipQueue ? undefined : queue}
          placeholder={t("tickets.newTicket.queuePlaceholder")}
          onValueChange={(v) => {
            setQueue(v);
            form.clearError("queueId");
          }}
          options={queueOptions}
          error={errors.queueId}
        />
        <ConnectionField value={whatsapp} onChange={setWhatsapp} options={connections.items} />
        {other
          ? (
            <div className="alert alert-warning" role="alert" data-testid="other-open-ticket">
              {other.user
                ? t("tickets.newTicket.otherOpen", {
                  user: other.user.name,
                  queue: other.queue?.name ?? t("tickets.noQueue"),
                })
                : t("tickets.newTicket.otherWaiting", {
                  queue: other.queue?.name ?? t("tickets.noQueue"),
                })}
            </div>
          )
          : null}
      </FormDialog>
      <ContactDialog
        open={adding !== null}
        id={null}
        initialName={adding ?? ""}
        onOpenChange={(open) => !open && setAdding(null)}
        onSaved={setContact}
      />
    </>
  );
}

/** The connection a ticket goes out through (new ticket, transfer). */
export function ConnectionField(
  { value, onChange, options }: {
    value: string;
    onChange: (value: string) => void;
    options: WhatsappOption[];
  },
) {
  const { t } = useTranslation();
  return (
    <SelectField
      label={t("tickets.newTicket.connection")}
      value={value || undefined}
      placeholder={t("tickets.newTicket.connectionPlaceholder")}
      onValueChange={onChange}
      options={options.map((c) => ({ value: String(c.id), label: c.name }))}
    />
  );
}
