import { memo } from "react";
import { useTranslation } from "react-i18next";
import { IconButton } from "../lib/ui/Button.tsx";
import { Avatar, Chip } from "./bits.tsx";
import { cutName, listTime } from "./format.ts";
import type { Ticket } from "../../contract/ticket_types.ts";
import { plainText } from "../lib/ui/wa_text.tsx";
import { SlaBadge } from "./SlaBadge.tsx";
import { useCompanyClock } from "../lib/clock.ts";
import { icon } from "../lib/ui/icon.tsx";

const Check = icon("check");
const Eye = icon("eye");
const Pin = icon("pin");
const Smartphone = icon("smartphone");

export type TicketItemProps = {
  ticket: Ticket;
  selected: boolean;
  /** Under 600 px: names cut to 10 characters (seeds/000 section 2). */
  narrow: boolean;
  /** Admins see the peek icon and the attendant's name. */
  admin: boolean;
  showUser: boolean;
  onOpen: (ticket: Ticket) => void;
  onAccept: (ticket: Ticket) => void;
  onPeek: (ticket: Ticket) => void;
  accepting: boolean;
  /** The clock the service-level badge reads (TicketList refreshes it). */
  now: number;
};

/**
 * One row of the ticket list: picture, name, time of the last activity (HH:mm today, else
 * dd/MM/yyyy), last message, unread count, connection, queue, attendant and tags. A pending
 * ticket is not opened by a click: it offers 'accept' (seeds/000 section 4).
 */
export const TicketItem = memo(function TicketItem(
  { ticket, selected, narrow, admin, showUser, onOpen, onAccept, onPeek, accepting, now }:
    TicketItemProps,
) {
  const { t } = useTranslation();
  const zone = useCompanyClock().zone;
  const pending = ticket.status === "pending";
  const name = ticket.contact?.name || ticket.contact?.number || `#${ticket.id}`;
  const open = () => {
    if (!pending) onOpen(ticket);
  };
  return (
    <li
      className="ti"
      data-selected={selected || undefined}
      data-status={ticket.status}
      data-ticket-id={ticket.id}
      data-testid="ticket-item"
      data-pinned={ticket.pinned || undefined}
      data-actions={(pending ? 2 : 0) + (admin ? 1 : 0) || undefined}
      style={{ ["--queue" as string]: ticket.queue?.color ?? "var(--border-strong)" }}
    >
      <div
        className="ti-main"
        role="button"
        tabIndex={0}
        aria-disabled={pending || undefined}
        aria-current={selected ? "true" : undefined}
        title={pending ? t("tickets.list.acceptToOpen") : undefined}
        onClick={open}
        onKeyDown={(e) => {
          if (e.key === "Enter" || e.key === " ") {
            e.preventDefault();
            open();
          }
        }}
      >
        <Avatar name={name} src={ticket.contact?.profilePicUrl} />
        <div className="ti-body">
          <div className="ti-row">
            <span className="ti-name" title={name} data-testid="ticket-name">
              {cutName(name, narrow)}
            </span>
            <SlaBadge ticket={ticket} now={now} />
            {ticket.pinned
              ? (
                <span
                  className="ti-pin"
                  data-testid="ticket-pinned"
                  title={t("tickets.pin.pinned")}
                >
                  <Pin size={13} aria-label={t("tickets.pin.pinned")} />
                </span>
              )
              : null}
            <time className="ti-time" dateTime={ticket.updatedAt}>
              {listTime(ticket.updatedAt, zone)}
            </time>
          </div>
          <div className="ti-row">
            {ticket.lastMessageDeleted
              ? (
                <span className="ti-last ti-deleted" data-testid="ticket-last-deleted">
                  {t("tickets.message.deleted")}
                </span>
              )
              : <span className="ti-last">{plainText(ticket.lastMessage ?? "") || "\u00a0"}</span>}
            {ticket.unreadMessages > 0
              ? (
                <span
                  className="ti-unread"
                  data-testid="ticket-unread"
                  aria-label={t("tickets.list.unread", { count: ticket.unreadMessages })}
                >
                  {ticket.unreadMessages > 99 ? "99+" : ticket.unreadMessages}
                </span>
              )
              : null}
          </div>
          <div className="ti-chips">
            {ticket.whatsapp
              ? (
                <Chip title={t("tickets.list.connection")}>
                  <Smartphone size={11} aria-hidden="true" />
                  {ticket.whatsapp.name}
                </Chip>
              )
              : null}
            <Chip color={ticket.queue?.color}>{ticket.queue?.name ?? t("tickets.noQueue")}</Chip>
            {showUser && ticket.user ? <Chip>{ticket.user.name}</Chip> : null}
            {ticket.tags?.map((tag) => <Chip key={tag.id} color={tag.color}>{tag.name}</Chip>)}
          </div>
        </div>
      </div>
      {pending || admin
        ? (
          <div className="ti-actions">
            {admin
              ? (
                <IconButton
                  label={t("tickets.list.peek")}
                  className="ti-peek"
                  data-testid="ticket-peek"
                  onClick={() => onPeek(ticket)}
                >
                  <Eye size={17} aria-hidden="true" />
                </IconButton>
              )
              : null}
            {pending
              ? (
                <button
                  type="button"
                  className="btn btn-primary ti-accept"
                  data-testid="ticket-accept"
                  disabled={accepting}
                  onClick={() => onAccept(ticket)}
                >
                  <Check size={15} aria-hidden="true" />
                  {t("tickets.actions.accept")}
                </button>
              )
              : null}
          </div>
        )
        : null}
    </li>
  );
});
