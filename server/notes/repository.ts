import type { Database } from "../../db/client.ts";
import type { TicketNote } from "../../db/schema.ts";

/** A ticket note as answered: the author's name with it (seeds/000 section 3 'Ticket note'). */
export type NoteView = {
  id: number;
  note: string;
  ticketId: number;
  contactId: number;
  userId: number | null;
  user: { id: number; name: string } | null;
  createdAt: string;
  updatedAt: string;
};

function noteQuery(db: Database, companyId: number) {
  return db.selectFrom("ticket_notes as n").leftJoin("users as u", "u.id", "n.userId")
    .select([
      "n.id",
      "n.note",
      "n.ticketId",
      "n.contactId",
      "n.userId",
      "n.createdAt",
      "n.updatedAt",
      "u.name as userName",
    ])
    .where("n.companyId", "=", companyId);
}

type NoteRow = Omit<NoteView, "user"> & { userName: string | null };

function view(row: NoteRow): NoteView {
  const { userName, ...rest } = row;
  return {
    ...rest,
    user: row.userId !== null && userName !== null ? { id: row.userId, name: userName } : null,
  };
}

/** Notes of a ticket and contact, newest first. */
export async function listNotes(
  db: Database,
  companyId: number,
  ticketId: number,
  contactId: number,
): Promise<NoteView[]> {
  const rows = await noteQuery(db, companyId).where("n.ticketId", "=", ticketId)
    .where("n.contactId", "=", contactId).orderBy("n.createdAt", "desc").orderBy("n.id", "desc")
    .execute();
  return rows.map(view);
}

export async function findNoteView(
  db: Database,
  companyId: number,
  id: number,
): Promise<NoteView | undefined> {
  const row = await noteQuery(db, companyId).where("n.id", "=", id).executeTakeFirst();
  return row ? view(row) : undefined;
}

export async function findNote(
  db: Database,
  companyId: number,
  id: number,
): Promise<TicketNote | undefined> {
  return await db.selectFrom("ticket_notes").selectAll().where("id", "=", id)
    .where("companyId", "=", companyId).executeTakeFirst();
}

export async function insertNote(
  db: Database,
  row: Omit<TicketNote, "id">,
): Promise<number> {
  return (await db.insertInto("ticket_notes").values(row).returning("id")
    .executeTakeFirstOrThrow()).id;
}

export async function deleteNote(db: Database, companyId: number, id: number) {
  await db.deleteFrom("ticket_notes").where("id", "=", id).where("companyId", "=", companyId)
    .execute();
}
