import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { api } from "../lib/api.ts";
import { useUser } from "../lib/session.ts";
import { FormDialog } from "../lib/list/FormDialog.tsx";
import { useFormSubmit } from "../lib/list/form_submit.ts";
import { SelectField } from "../lib/ui/Select.tsx";
import { ConnectionField, defaultConnection } from "./NewTicketDialog.tsx";
import { SearchPick } from "../lib/ui/SearchPick.tsx";
import type {
  QueueOption,
  Ticket,
  UserOption,
  WhatsappOption,
} from "../../contract/ticket_types.ts";
import { useLookup } from "../lib/use_lookup.ts";

/**
 * Transfer (seeds/000 sections 4, 5, 9): an attendant found from 3 typed characters (optional:
 * without one the ticket waits in the queue with no user), the queue (the chosen attendant's
 * queues, else every queue) and the connection; the user's default connection and their single
 * queue come prefilled.
 */
export default function TransferDialog(
  { ticket, onClose, onDone }: { ticket: Ticket; onClose: () => void; onDone: () => void },
) {
  const { t } = useTranslation();
  const user = useUser();
  const [target, setTarget] = useState<UserOption | null>(null);
  const [queue, setQueue] = useState<string>(
    user.queues.length === 1
      ? String(user.queues[0].id)
      : ticket.queueId !== null
      ? String(ticket.queueId)
      : "",
  );
  const [whatsapp, setWhatsapp] = useState<string>("");
  const queues = useLookup<QueueOption>("/queue", "queues");
  const connections = useLookup<WhatsappOption>("/whatsapp", "whatsapps", { session: 0 });

  useEffect(() => {
    if (!connections.ready || whatsapp) return;
    const id = defaultConnection(connections.items, user.whatsappId) ?? ticket.whatsappId;
    if (id !== null) setWhatsapp(String(id));
  }, [connections.ready]);

  const queueOptions = (target?.queues?.length ? target.queues : queues.items)
    .map((q) => ({ value: String(q.id), label: q.name }));

  // A chosen attendant without the selected queue: offer their queues instead.
  useEffect(() => {
    if (target?.queues?.length && !target.queues.some((q) => String(q.id) === queue)) {
      setQueue(target.queues.length === 1 ? String(target.queues[0].id) : "");
    }
  }, [target?.id]);

  const form = useFormSubmit({
    validate: (): Record<string, string> =>
      queue ? {} : { queueId: "tickets.newTicket.queueRequired" },
    send: () =>
      api.put(`/tickets/${ticket.id}`, {
        action: "transfer",
        queueId: Number(queue),
        userId: target?.id ?? null,
        whatsappId: whatsapp ? Number(whatsapp) : undefined,
      }, { quiet: true }),
    onDone,
  });

  return (
    <FormDialog
      open
      onOpenChange={(open) => !open && onClose()}
      title={t("tickets.transfer.title")}
      width={480}
      id="transfer"
      form={form}
      submitLabel={t("tickets.transfer.submit")}
      formClassName=""
    >
      <SearchPick<UserOption>
        label={t("tickets.transfer.user")}
        placeholder={t("tickets.transfer.userPlaceholder")}
        path="/users/list"
        listKey="users"
        value={target}
        onChange={setTarget}
        describe={(u) => ({ title: u.name, sub: u.queues?.map((q) => q.name).join(", ") })}
        testId="transfer-user"
      />
      <SelectField
        label={t("tickets.transfer.queue")}
        name="queueId"
        value={queue || undefined}
        placeholder={t("tickets.newTicket.queuePlaceholder")}
        onValueChange={(v) => {
          setQueue(v);
          form.clearError("queueId");
        }}
        options={queueOptions}
        error={form.errors.queueId}
      />
      <ConnectionField value={whatsapp} onChange={setWhatsapp} options={connections.items} />
      <p className="field-hint">{t("tickets.transfer.hint")}</p>
    </FormDialog>
  );
}
