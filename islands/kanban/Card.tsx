import { useTranslation } from "react-i18next";
import { useDraggable } from "@dnd-kit/core";
import type { KanbanCard } from "../../contract/kanban_types.ts";
import type { LaneKey } from "./board_state.ts";

/**
 * A ticket's card (seeds/001 section 2 'Kanban board'): ticket number, contact name, number,
 * last message and 'Ver Ticket'. The card is the drag handle: a pointer drags it, and with the
 * keyboard Space or Enter picks it up, the arrows move it between lanes, Space drops it, Escape
 * puts it back (@dnd-kit's keyboard sensor; its announcements are read to screen readers).
 */
export function Card({ card, lane }: { card: KanbanCard; lane: LaneKey }) {
  const { t } = useTranslation();
  const { attributes, listeners, setNodeRef, transform, isDragging } = useDraggable({
    id: card.id,
    data: { lane },
  });
  const style = transform
    ? { transform: `translate3d(${transform.x}px, ${transform.y}px, 0)` }
    : undefined;
  return (
    <li
      ref={setNodeRef}
      className="kb-card"
      style={style}
      data-dragging={isDragging || undefined}
      data-testid="kanban-card"
      data-ticket-id={card.id}
      aria-label={t("kanban.cardLabel", { id: card.id, name: card.contact.name })}
      {...attributes}
      {...listeners}
    >
      <div className="kb-card-head">
        <span className="kb-card-number">{t("kanban.ticket", { id: card.id })}</span>
        <span className="kb-card-name">{card.contact.name}</span>
      </div>
      <span className="kb-card-phone">{card.contact.number}</span>
      <p className="kb-card-last">{card.lastMessage || "\u00a0"}</p>
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
