import type { AppDeps, AuthInfo } from "../context.ts";
import { assertRecord } from "../auth/policy.ts";
import { noteDeleteNeeds } from "../../contract/record_policy.ts";
import { badRequest, notFound } from "../errors.ts";
import { viewerOf } from "../tickets/access.ts";
import { readableTicket } from "../tickets/service.ts";
import {
  deleteNote,
  findNote,
  findNoteView,
  insertNote,
  listNotes,
  type NoteView,
} from "./repository.ts";

/**
 * Ticket notes (seeds/000 sections 3, 5, 7): whoever may read the ticket reads and writes its
 * notes; the author or an admin removes one. A note of a ticket the caller may not read answers
 * like the ticket (404 or 403).
 */

/** The notes of a ticket and its contact, newest first. */
export async function ticketNotes(
  deps: AppDeps,
  auth: AuthInfo,
  ticketId: number,
  contactId: number,
): Promise<NoteView[]> {
  const viewer = await viewerOf(deps.db, auth);
  await readableTicket(deps.db, viewer, { id: ticketId });
  return await listNotes(deps.db, viewer.companyId, ticketId, contactId);
}

/** A note on a ticket; `contactId` must be the ticket's contact. */
export async function addNote(
  deps: AppDeps,
  auth: AuthInfo,
  input: { note: string; ticketId: number; contactId: number },
): Promise<NoteView | undefined> {
  const viewer = await viewerOf(deps.db, auth);
  const ticket = await readableTicket(deps.db, viewer, { id: input.ticketId });
  if (ticket.contactId !== input.contactId) {
    throw badRequest("ERR_VALIDATION", "contactId: not the ticket's contact", {
      contactId: ["not the ticket's contact"],
    });
  }
  const now = deps.clock.now().toISOString();
  const noteId = await insertNote(deps.db, {
    companyId: viewer.companyId,
    ticketId: ticket.id,
    contactId: ticket.contactId,
    userId: viewer.userId,
    note: input.note,
    createdAt: now,
    updatedAt: now,
  });
  return await findNoteView(deps.db, viewer.companyId, noteId);
}

/** Removes a note: its author or an admin; other attendants only read it. */
export async function removeNote(deps: AppDeps, auth: AuthInfo, id: number): Promise<void> {
  const viewer = await viewerOf(deps.db, auth);
  const note = await findNote(deps.db, viewer.companyId, id);
  if (!note) throw notFound("ERR_NO_NOTE_FOUND", "Note not found");
  await readableTicket(deps.db, viewer, { id: note.ticketId });
  // The author or an admin removes a note; other attendants only read it.
  assertRecord(viewer, noteDeleteNeeds(viewer, note));
  await deleteNote(deps.db, viewer.companyId, note.id);
}
