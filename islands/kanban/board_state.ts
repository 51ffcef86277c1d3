import { api } from "../lib/api.ts";
import { ListController } from "../lib/list/list_controller.ts";
import type { KanbanCard, KanbanPage } from "../../contract/kanban_types.ts";
import { type AudienceViewer, onKanbanBoard } from "../../contract/ticket_audience.ts";

/** A lane's key: "open" for 'Em aberto', else the kanban tag's id. */
export type LaneKey = "open" | number;

/** The ticket of a `company-<id>-ticket` update (a TicketView), as far as a card needs it. */
export type TicketEvent = {
  id: number;
  uuid: string;
  status: KanbanCard["status"];
  lastMessage: string;
  lastMessageDeleted?: boolean;
  updatedAt: string;
  queueId: number | null;
  userId: number | null;
  isGroup: boolean;
  contact: { id: number; name: string; number: string };
  tags: { id: number; name: string; color: string }[];
};

/** Newest activity first, as the API pages a lane. */
export const byActivity = (a: KanbanCard, b: KanbanCard) =>
  b.updatedAt.localeCompare(a.updatedAt) || b.id - a.id;

/**
 * One lane's paged list (islands/lib/list/list_controller.ts): GET /ticket/kanban?lane=.
 * `onRead` runs as each read starts (the board's useRoomSync markRead).
 */
export function laneController(lane: LaneKey, onRead: () => void): ListController<KanbanCard> {
  return new ListController<KanbanCard>({
    sort: byActivity,
    fetch: async ({ pageNumber }) => {
      onRead();
      const page = await api.get<KanbanPage>("/ticket/kanban", { query: { lane, pageNumber } });
      return { records: page.tickets, hasMore: page.hasMore };
    },
  });
}

/** A ticket update as a card; its tags marked kanban when they are one of the board's lanes. */
export function cardOf(ticket: TicketEvent, lanes: ReadonlySet<number>): KanbanCard {
  return {
    id: ticket.id,
    uuid: ticket.uuid,
    status: ticket.status,
    lastMessage: ticket.lastMessage,
    lastMessageDeleted: ticket.lastMessageDeleted ?? false,
    updatedAt: ticket.updatedAt,
    queueId: ticket.queueId,
    userId: ticket.userId,
    isGroup: ticket.isGroup,
    contact: { id: ticket.contact.id, name: ticket.contact.name, number: ticket.contact.number },
    tags: ticket.tags.map((g) => ({ ...g, kanban: lanes.has(g.id) })),
  };
}

/** Who keeps a card on their board: the server's rule, onKanbanBoard (contract/ticket_audience.ts). */
export function onBoard(card: KanbanCard, viewer: AudienceViewer): boolean {
  return onKanbanBoard(viewer, card);
}

/** The lane a card belongs in: its first tag that is a lane, else 'Em aberto'. */
export function laneOfCard(card: KanbanCard, lanes: ReadonlySet<number>): LaneKey {
  return card.tags.find((g) => lanes.has(g.id))?.id ?? "open";
}
