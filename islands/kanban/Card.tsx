import { useTranslation } from "react-i18next";
import type { KanbanCard } from "../../contract/kanban_types.ts";
import type { LaneKey } from "./board_state.ts";
import { formatPhone } from "../lib/phone.ts";
import { waText } from "../lib/ui/wa_text.tsx";

/** What a card shows: number, contact, formatted phone, the last message as WhatsApp shows it. */
function CardBody({ card }: { card: KanbanCard }) {
  const { t } = useTranslation();
  return (
    <>
      <div className="kb-card-head">
        <span className="kb-card-number">{t("kanban.ticket", { id: card.id })}</span>
        <span className="kb-card-name">{card.contact.name}</span>
      </div>
      <span className="kb-card-phone">{formatPhone(card.contact.number)}</span>
      <p className="kb-card-last" data-testid="kanban-card-last">
        {card.lastMessageDeleted
          ? <em data-testid="kanban-card-deleted">{t("tickets.message.deleted")}</em>
          : card.lastMessage
          ? waText(card.lastMessage, { links: false })
          : "\u00a0"}
      </p>
    </>
  );
}

/** What the drag layer (drag.tsx) adds to a card: its node, its handle's attributes and events. */
export type CardDrag = {
  ref?: (node: HTMLElement | null) => void;
  dragging?: boolean;
  handle?: object;
};

/**
 * A ticket's card (seeds/001 section 2 'Kanban board'): ticket number, contact name, number,
 * last message and 'Ver Ticket'. Readable, and its link working, before the drag layer loads
 * (drag.tsx gives `drag`); then the card is the drag handle: a pointer drags it, and with the
 * keyboard Space or Enter picks it up, the arrows move it between lanes, Space drops it, Escape
 * puts it back (@dnd-kit's keyboard sensor; its announcements are read to screen readers).
 * While it is dragged it stays in its lane, dimmed, and its copy (DraggedCard) follows the
 * pointer above every lane.
 */
export function Card({ card, drag = {} }: { card: KanbanCard; lane: LaneKey; drag?: CardDrag }) {
  const { t } = useTranslation();
  return (
    <li
      ref={drag.ref}
      className="kb-card"
      data-dragging={drag.dragging || undefined}
      data-testid="kanban-card"
      data-ticket-id={card.id}
      aria-label={t("kanban.cardLabel", { id: card.id, name: card.contact.name })}
      {...drag.handle}
    >
      <CardBody card={card} />
      <a
        className="btn btn-ghost kb-card-open"
        href={`/tickets/${card.uuid}`}
        // A click on the link opens the ticket; it never starts a drag.
        onPointerDown={(e) => e.stopPropagation()}
        onKeyDown={(e) => e.stopPropagation()}
      >
        {t("kanban.open")}
      </a>
    </li>
  );
}

/** The copy of the dragged card inside the board's DragOverlay (not clipped by any lane). */
export function DraggedCard({ card }: { card: KanbanCard }) {
  return (
    <div className="kb-card kb-card-overlay" data-testid="kanban-drag-overlay" aria-hidden="true">
      <CardBody card={card} />
    </div>
  );
}
