/**
 * The kanban board's answers (seeds/001 section 3 'Kanban ticket'), declared once here and
 * imported by the server's view (server/kanban/repository.ts).
 */
export type KanbanCard = {
  id: number;
  uuid: string;
  status: "pending" | "open" | "closed";
  lastMessage: string;
  /** The newest message was deleted for everyone: the card shows "message deleted". */
  lastMessageDeleted?: boolean;
  updatedAt: string;
  queueId: number | null;
  userId: number | null;
  /** A group's ticket (the audience rule reads it: contract/ticket_audience.ts). */
  isGroup: boolean;
  contact: { id: number; name: string; number: string };
  tags: { id: number; name: string; color: string; kanban: boolean }[];
};

/** One page of a lane: `lane` is "open" ('Em aberto') or a kanban tag's id. */
export type KanbanPage = { tickets: KanbanCard[]; count: number; hasMore: boolean };
