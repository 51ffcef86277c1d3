import { useCallback, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { mayWriteInTicket } from "../../contract/record_policy.ts";
import { viewerOfUser } from "../../contract/ticket_audience.ts";
import { rolesOf } from "../../contract/roles.ts";
import { api } from "../lib/api.ts";
import { ApiError } from "../lib/errors.ts";
import { useUser } from "../lib/session.ts";
import { realtime, useRealtime } from "../lib/socket.ts";
import { viewingTicketId } from "../lib/ticket_notify.ts";
import { toast } from "../lib/toast.ts";
import { Button } from "../lib/ui/Button.tsx";
import { ConfirmDialog } from "../lib/ui/ConfirmDialog.tsx";
import { lazyPart } from "../lib/ui/deferred.tsx";
import { MessageInput } from "./MessageInput.tsx";
import { MessageList } from "./MessageList.tsx";
import { TicketHeader } from "./TicketHeader.tsx";
import type { Message, Ticket } from "../../contract/ticket_types.ts";
import { useMessages } from "./use_messages.ts";
import { useMessageToolsState } from "./message_tools.tsx";
import { icon } from "../lib/ui/icon.tsx";
import { SummaryBanner } from "./assist.tsx";
import { ReferralBanner } from "./ReferralBanner.tsx";

const Check = icon("check");
const Lock = icon("lock");
const RotateCcw = icon("rotate-ccw");

const ContactDrawer = lazyPart(() => import("./ContactDrawer.tsx").then((m) => m.default));

/**
 * The chat column for /tickets/{uuid} (seeds/000 section 2 'Ticket view'). A ticket outside a
 * user's queues answers 403: 'Acesso não permitido' and back to /tickets (section 5). A delete
 * event for the ticket on screen shows 'Ticket deleted sucessfully.' and returns to the list
 * (section 4).
 */
export function TicketView(
  { uuid, onLeave, onBack }: { uuid: string; onLeave: () => void; onBack: () => void },
) {
  const { t } = useTranslation();
  const user = useUser();
  const [ticket, setTicket] = useState<Ticket | null>(null);
  const [replyTo, setReplyTo] = useState<Message | null>(null);
  const [deleting, setDeleting] = useState<Message | null>(null);
  const [contactOpen, setContactOpen] = useState(false);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    let live = true;
    setTicket(null);
    api.get<Ticket>(`/tickets/u/${encodeURIComponent(uuid)}`, { quiet: true })
      .then((found) => live && setTicket(found))
      .catch((error) => {
        if (!live) return;
        if (error instanceof ApiError && error.status === 403) {
          toast.error(t("errors.accessDenied"));
        } else toast.error(error);
        onLeave();
      });
    return () => {
      live = false;
    };
  }, [uuid]);

  const ticketId = ticket?.id ?? null;
  useEffect(() => {
    if (ticketId === null) return;
    viewingTicketId.value = ticketId;
    const leave = realtime.join("joinChatBox", ticketId);
    return () => {
      leave();
      if (viewingTicketId.value === ticketId) viewingTicketId.value = null;
    };
  }, [ticketId]);

  const conversation = useMessages(ticketId);
  // Forward and edit (issue 28): an edit's answer shows at once, before its event.
  const messageTools = useMessageToolsState(
    ticketId ?? 0,
    (message) => conversation.upsert({ ...message, quotedMsg: message.quotedMsg ?? null }),
    ticket?.whatsapp?.capabilities?.reactions === true,
  );

  useRealtime("ticket", (event) => {
    if (ticketId === null) return;
    if (event.action === "update" && event.ticket.id === ticketId) setTicket(event.ticket);
    if (event.action === "delete" && event.ticketId === ticketId) {
      toast.success({ key: "tickets.deleted" });
      onLeave();
    }
  });
  useRealtime("contact", (event) => {
    if (event.action !== "update") return;
    const contact = event.record;
    setTicket((old) =>
      old && old.contactId === contact.id
        ? { ...old, contact: { ...old.contact, ...contact } }
        : old
    );
  });

  // POST /api/messages answers {messages: [...]} (one per file); shown before their events.
  const onSent = useCallback((answer: unknown) => {
    const list = (answer as { messages?: Message[] } | null)?.messages;
    if (!Array.isArray(list)) return;
    for (const message of list) {
      if (typeof message?.id === "number") {
        conversation.upsert({ ...message, quotedMsg: message.quotedMsg ?? null });
      }
    }
  }, [conversation.upsert]);

  const act = async (action: "accept" | "reopen") => {
    if (!ticket) return;
    setBusy(true);
    try {
      const answer = await api.put<Ticket | undefined>(`/tickets/${ticket.id}`, { action });
      if (answer && typeof answer === "object" && "uuid" in answer) setTicket(answer);
    } catch {
      // shown by the api client
    } finally {
      setBusy(false);
    }
  };

  if (!ticket) {
    return (
      <div className="tv" aria-busy="true">
        <div className="th th-skeleton">
          <span className="skeleton" style={{ width: 40, height: 40, borderRadius: "50%" }} />
          <span className="skeleton" style={{ width: 180, height: 16 }} />
        </div>
        <div className="ml-wrap" />
      </div>
    );
  }

  const contactName = ticket.contact?.name || ticket.contact?.number || "";
  // Replying needs an open ticket the user may act on (contract/record_policy.ts, as the server).
  const canWrite = mayWriteInTicket(viewerOfUser(user), rolesOf(user), ticket);
  const readOnly = !canWrite;

  return (
    <div className="tv" data-testid="ticket-view" data-status={ticket.status}>
      <TicketHeader
        ticket={ticket}
        onBack={onBack}
        onChanged={setTicket}
        onLeave={onLeave}
        onContact={() => setContactOpen(true)}
        onJump={conversation.jumpTo}
      />
      <SummaryBanner ticketId={ticket.id} />
      <ReferralBanner referral={ticket.referral} />
      <messageTools.Provider value={messageTools.tools}>
        <MessageList
          conversation={conversation}
          contactName={contactName}
          readOnly={readOnly}
          onReply={setReplyTo}
          onDelete={setDeleting}
        />
      </messageTools.Provider>
      {messageTools.bar ?? (canWrite
        ? (
          <MessageInput
            ticketId={ticket.id}
            contactName={contactName}
            replyTo={replyTo}
            onClearReply={() => setReplyTo(null)}
            onSent={onSent}
            lastInboundId={conversation.messages.findLast((m) => !m.fromMe)?.id}
            window24h={ticket.whatsapp?.capabilities?.window24h === true}
          />
        )
        : (
          <div className="tv-locked" data-testid="input-locked">
            <Lock size={16} aria-hidden="true" />
            <span>
              {ticket.status === "pending"
                ? t("tickets.locked.pending")
                : ticket.status === "closed"
                ? t("tickets.locked.closed")
                : t("tickets.locked.other", { name: ticket.user?.name ?? "" })}
            </span>
            {ticket.status === "pending"
              ? (
                <Button variant="primary" loading={busy} onClick={() => act("accept")}>
                  <Check size={16} aria-hidden="true" />
                  {t("tickets.actions.accept")}
                </Button>
              )
              : ticket.status === "closed"
              ? (
                <Button variant="secondary" loading={busy} onClick={() => act("reopen")}>
                  <RotateCcw size={16} aria-hidden="true" />
                  {t("tickets.actions.reopen")}
                </Button>
              )
              : null}
          </div>
        ))}
      {messageTools.dialogs}
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(open) => !open && setDeleting(null)}
        title={t("tickets.message.deleteTitle")}
        danger
        description={t("tickets.message.deleteText")}
        confirmLabel={t("common.delete")}
        onConfirm={async () => {
          if (deleting) await api.delete(`/messages/${deleting.id}`);
        }}
      />
      {contactOpen
        ? (
          <ContactDrawer
            contactId={ticket.contactId}
            ticket={ticket}
            onClose={() => setContactOpen(false)}
          />
        )
        : null}
    </div>
  );
}
