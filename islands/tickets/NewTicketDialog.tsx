import { type FormEvent, lazy, Suspense, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import UserPlus from "lucide-react/icons/user-plus";
import { api } from "../lib/api.ts";
import { ApiError } from "../lib/errors.ts";
import { isAdmin, useUser } from "../lib/session.ts";
import { toast } from "../lib/toast.ts";
import { FormDialog } from "../lib/list/FormDialog.tsx";
import { Select } from "../lib/ui/Select.tsx";
import { parseOtherTicket, submitDelay } from "./format.ts";
import { SearchPick } from "./SearchPick.tsx";
import type { Contact, OtherOpenTicket, Ticket, WhatsappOption } from "./types.ts";
import { useLookup } from "./use_lookup.ts";

const ContactDialog = lazy(() => import("../lib/contact/ContactDialog.tsx"));

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
  const admin = isAdmin(user);
  const [contact, setContact] = useState<Contact | null>(null);
  const [queue, setQueue] = useState<string>(
    user.queues.length === 1 ? String(user.queues[0].id) : NONE,
  );
  const [whatsapp, setWhatsapp] = useState<string>("");
  const [errors, setErrors] = useState<{ contact?: string; queue?: string }>({});
  const [other, setOther] = useState<OtherOpenTicket | null>(null);
  const [saving, setSaving] = useState(false);
  const [adding, setAdding] = useState<string | null>(null);
  const connections = useLookup<WhatsappOption>("/whatsapp", "whatsapps", { session: 0 });

  useEffect(() => {
    if (!connections.ready || whatsapp) return;
    const id = defaultConnection(connections.items, user.whatsappId);
    if (id !== null) setWhatsapp(String(id));
  }, [connections.ready]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setOther(null);
    const found: typeof errors = {};
    if (!contact) found.contact = t("tickets.newTicket.contactRequired");
    if (queue === NONE && !admin) found.queue = t("tickets.newTicket.queueRequired");
    setErrors(found);
    if (!contact || Object.keys(found).length) return;
    setSaving(true);
    try {
      await submitDelay();
      const ticket = await api.post<Ticket>("/tickets", {
        contactId: contact.id,
        queueId: queue === NONE ? null : Number(queue),
        whatsappId: whatsapp ? Number(whatsapp) : null,
        userId: user.id,
        status: "open",
      }, { quiet: true });
      onOpenTicket(ticket.uuid);
    } catch (error) {
      if (error instanceof ApiError && error.code === "ERR_OTHER_OPEN_TICKET") {
        const existing = parseOtherTicket(error.message);
        if (existing && existing.userId === user.id && existing.uuid) {
          onOpenTicket(existing.uuid);
          return;
        }
        if (existing) {
          setOther(existing);
          return;
        }
      }
      if (error instanceof ApiError && error.fields.queueId) {
        setErrors({ queue: error.fields.queueId[0] });
      }
      toast.error(error);
    } finally {
      setSaving(false);
    }
  };

  const queueOptions = [
    ...(admin ? [{ value: NONE, label: t("tickets.noQueue") }] : []),
    ...user.queues.map((q) => ({ value: String(q.id), label: q.name })),
  ];

  return (
    <>
      <FormDialog
        open={adding === null}
        onOpenChange={(open) => !open && onClose()}
        title={t("tickets.newTicket.title")}
        width={480}
        formId="new-ticket-form"
        form={{ saving, onSubmit: submit }}
        submitLabel={t("tickets.newTicket.submit")}
        submitTestId="new-ticket-submit"
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
        <div className="field">
          <label>{t("tickets.newTicket.queue")}</label>
          <Select
            label={t("tickets.newTicket.queue")}
            value={queue === NONE && !admin ? undefined : queue}
            placeholder={t("tickets.newTicket.queuePlaceholder")}
            onValueChange={(v) => {
              setQueue(v);
              setErrors((e) => ({ ...e, queue: undefined }));
            }}
            options={queueOptions}
          />
          {errors.queue
            ? <span className="field-error" data-testid="queue-error">{errors.queue}</span>
            : null}
        </div>
        <div className="field">
          <label>{t("tickets.newTicket.connection")}</label>
          <Select
            label={t("tickets.newTicket.connection")}
            value={whatsapp || undefined}
            placeholder={t("tickets.newTicket.connectionPlaceholder")}
            onValueChange={setWhatsapp}
            options={connections.items.map((c) => ({ value: String(c.id), label: c.name }))}
          />
        </div>
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
      <Suspense fallback={null}>
        {adding !== null
          ? (
            <ContactDialog
              open
              contactId={null}
              initialName={adding}
              onOpenChange={(open) => !open && setAdding(null)}
              onSaved={setContact}
            />
          )
          : null}
      </Suspense>
    </>
  );
}
