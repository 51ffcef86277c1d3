import type { Database } from "../../db/client.ts";
import type { AppDeps } from "../context.ts";
import type { TicketView } from "../../contract/ticket_types.ts";
import type { MessageChanged, TicketPlacement } from "../events/domain.ts";
import { HAND_OVER } from "../bots/registry.ts";
import { log } from "../log.ts";
import {
  addWorkingMinutes,
  isWithinDailyHours,
  isWithinHours,
  workingMsBetween,
} from "../queues/hours.ts";
import { acceptGreeting } from "../tickets/greeting.ts";
import { loadTicketView, messageViews } from "../tickets/view_repository.ts";
import { companyTimeZone } from "../settings/values.ts";
import { addressOfContact } from "../whatsapp/providers/address.ts";
import { enqueueInTransaction, lastMessageOf } from "../whatsapp/outbox/outbox.ts";
import { recipientOf, setTicketLastMessage } from "../whatsapp/outbox/outbox_repository.ts";
import {
  type Attendant,
  giveTicket,
  moveCursor,
  onlineAttendants,
  pausedResolution,
  pauseResolution,
  type QueuePolicy,
  queuePolicy,
  redate,
  resumeResolution,
  setDueDates,
  ticketsToRedate,
  ticketToPlace,
  waitingTickets,
} from "./repository.ts";
import { noteOutgoing, noteOutgoingMany } from "../events/outgoing_repository.ts";

/**
 * Automatic distribution and service-level targets (issue 26).
 *
 * Every way a ticket enters a queue (the chatbot or a single-queue connection, a transfer without
 * a user, POST /api/tickets, a reopened or returned ticket, the offline job taking one back) ends
 * in a domain event; `wireDistribution` hears them and calls the ONE function `placeTicket`,
 * which in one transaction sets the ticket's due instants (once) and, if the queue distributes,
 * gives it to an attendant with a guarded UPDATE (repository.ts `giveTicket`: capacity is counted
 * by the UPDATE itself, so it holds across processes on one database). Capacity freed (a ticket
 * closed, returned or moved away) and an attendant coming online give out what waits.
 */

/** Pending, nobody's, and no bot owns it: people may take it. */
function waiting(t: {
  status: string;
  userId: number | null;
  chatbot: number;
  useIntegration: number;
  promptId: number | null;
}): boolean {
  return t.status === "pending" && t.userId === null && t.chatbot === 0 &&
    t.useIntegration === 0 && t.promptId === null;
}

/** Round-robin: the attendants after the one who got the last ticket, then from the start. */
function rotate(people: Attendant[], cursor: number | null): Attendant[] {
  if (cursor === null) return people;
  const next = people.findIndex((p) => p.id > cursor);
  return next <= 0 ? people : [...people.slice(next), ...people.slice(0, next)];
}

/** Who is offered the ticket, in order: online, under capacity, by the queue's policy. */
function candidates(queue: QueuePolicy, attendants: Attendant[]): Attendant[] {
  const free = attendants.filter((a) => a.maxOpenTickets === null || a.active < a.maxOpenTickets);
  if (queue.distribution === "round_robin") return rotate(free, queue.distributionCursor);
  return free.sort((a, b) => a.active - b.active || a.id - b.id);
}

/** Gives the ticket to the first candidate whose guarded UPDATE succeeds; their id or null. */
async function assign(
  trx: Database,
  companyId: number,
  ticketId: number,
  queue: QueuePolicy,
  now: Date,
  avoid: number | null,
  timeZone: string,
): Promise<number | null> {
  if (queue.distribution === "off") return null;
  // A queue with hours gives tickets out only while it works, and to people within their own
  // (both on the company's clock).
  if (queue.hours.length > 0 && !isWithinHours(queue.hours, now, timeZone)) return null;
  const stamp = now.toISOString();
  const people = candidates(queue, await onlineAttendants(trx, companyId, queue.id))
    .filter((person) =>
      person.id !== avoid && isWithinDailyHours(person.startWork, person.endWork, now, timeZone)
    );
  for (const person of people) {
    const given = await giveTicket(trx, companyId, ticketId, person.id, person.maxOpenTickets, {
      ...HAND_OVER,
      acceptedAt: stamp,
      distributedAt: stamp,
      updatedAt: stamp,
    });
    if (!given) continue;
    if (queue.distribution === "round_robin") {
      await moveCursor(trx, companyId, queue.id, person.id);
    }
    return person.id;
  }
  return null;
}

/**
 * The one assignment function. In ONE transaction: the due instants of the queue's targets
 * (counted in the queue's working hours; set once per ticket), then, if the ticket waits in a
 * queue that distributes, an attendant. After commit the change is told (ticket.updated, and
 * ticket.assigned to the attendant). Returns whether the ticket was given to someone.
 */
export async function placeTicket(
  deps: AppDeps,
  companyId: number,
  ticketId: number,
  /** Who just gave the ticket back (returned, transferred away): not offered it at once. */
  avoid: number | null = null,
): Promise<boolean> {
  const now = deps.clock.now();
  const outcome = await deps.db.transaction().execute(async (trx) => {
    const ticket = await ticketToPlace(trx, companyId, ticketId);
    if (!ticket || ticket.queueId === null || ticket.status === "closed") return undefined;
    const queue = await queuePolicy(trx, companyId, ticket.queueId);
    if (!queue) return undefined;
    const before: TicketPlacement = {
      status: ticket.status,
      queueId: ticket.queueId,
      userId: ticket.userId,
    };
    let dated = false;
    const timeZone = await companyTimeZone(trx, companyId);
    const targets = queue.firstResponseMinutes !== null || queue.resolutionMinutes !== null;
    if (targets && ticket.firstResponseDueAt === null && ticket.resolutionDueAt === null) {
      const due = (minutes: number | null) =>
        minutes === null
          ? null
          : addWorkingMinutes(now, minutes, queue.hours, timeZone).toISOString();
      await setDueDates(trx, companyId, ticketId, {
        firstResponseDueAt: due(queue.firstResponseMinutes),
        resolutionDueAt: due(queue.resolutionMinutes),
      });
      dated = true;
    }
    const userId = waiting(ticket)
      ? await assign(trx, companyId, ticketId, queue, now, avoid, timeZone)
      : null;
    // Given out like a manual accept, greeted like one (issue 50 item 11): queued in this
    // transaction, so the greeting exists if and only if the ticket was given. Once: giveTicket's
    // UPDATE is guarded by `status = 'pending' AND userId IS NULL`, so a second tick (or process)
    // gives nothing and greets nobody (tests/distribution/greeting_test.ts).
    let greeting = null;
    if (userId !== null && ticket.whatsappId !== null) {
      const body = await acceptGreeting(trx, companyId, ticket, userId, now);
      if (body) {
        const contact = await recipientOf(trx, companyId, ticket.contactId);
        greeting = await enqueueInTransaction(trx, {
          companyId,
          whatsappId: ticket.whatsappId,
          ticketId,
          contactId: contact.id,
          toJid: addressOfContact(contact),
          body,
          now: now.toISOString(),
        });
        await setTicketLastMessage(
          trx,
          companyId,
          ticketId,
          lastMessageOf(body),
          now.toISOString(),
        );
      }
    }
    if (!dated && userId === null) return undefined;
    // Noted with the change (server/events/outgoing.ts): its webhooks and pushes survive a crash.
    const [ticketNote, greetingNote] = await noteOutgoingMany(trx, companyId, [
      { event: "ticket.updated", subject: { ticketId, before } },
      ...(greeting
        ? [{ event: "message.created", subject: { ticketId, messageId: greeting.id } }]
        : []),
    ], now.toISOString());
    return { before, userId, greeting, notes: { ticket: ticketNote, greeting: greetingNote } };
  });
  if (!outcome) return false;
  const view = await loadTicketView(deps.db, companyId, ticketId);
  if (!view) return false;
  if (outcome.greeting) {
    const [message] = await messageViews(deps.db, companyId, [outcome.greeting]);
    if (message) {
      deps.events.emit("message.created", {
        message,
        ticket: view,
        outgoing: outcome.notes.greeting,
      });
    }
    if (view.whatsappId !== null) deps.sessions.kickOutbox(view.whatsappId);
  }
  deps.events.emit("ticket.updated", {
    ticket: view,
    before: outcome.before,
    outgoing: outcome.notes.ticket,
  });
  if (outcome.userId !== null) {
    deps.events.emit("ticket.assigned", { companyId, userId: outcome.userId, ticket: view });
  }
  return outcome.userId !== null;
}

/** How many waiting tickets one pass looks at, and how many passes a call makes at most. */
const WAITING_BATCH = 100;
const MAX_PASSES = 50;

/**
 * Gives out what waits in the company's distributing queues, oldest first, until nobody is free
 * (a queue where a ticket found nobody is skipped for the rest of the pass). Returns how many
 * tickets were given.
 */
export async function distributeWaiting(deps: AppDeps, companyId: number): Promise<number> {
  let given = 0;
  for (let pass = 0; pass < MAX_PASSES; pass++) {
    const tickets = await waitingTickets(deps.db, companyId, WAITING_BATCH);
    const full = new Set<number>();
    let givenThisPass = 0;
    for (const ticket of tickets) {
      if (full.has(ticket.queueId)) continue;
      if (await placeTicket(deps, companyId, ticket.id)) givenThisPass++;
      else full.add(ticket.queueId);
    }
    given += givenThisPass;
    if (givenThisPass === 0 || tickets.length < WAITING_BATCH) break;
  }
  return given;
}

/**
 * Dates again the targets still ahead of the company's waiting tickets (issue 50: one queue whose
 * hours or targets changed, or all of them when the company's scheduleType did), counted from
 * when each ticket's clock started in the hours that count now: the first response of a ticket
 * nobody answered yet, and the resolution of a ticket still pending (an open ticket's clock may
 * have been paused and pushed since: it keeps its instant, unless it had none). Breached and
 * paused tickets keep theirs. Each change is told as ticket.updated; returns how many changed.
 */
export async function redateWaiting(
  deps: AppDeps,
  companyId: number,
  queueId: number | null,
): Promise<number> {
  const policies = new Map<number, QueuePolicy | undefined>();
  const stamp = () => deps.clock.now().toISOString();
  const timeZone = await companyTimeZone(deps.db, companyId);
  let changed = 0;
  for (const ticket of await ticketsToRedate(deps.db, companyId, queueId)) {
    const id = ticket.queueId!;
    if (!policies.has(id)) policies.set(id, await queuePolicy(deps.db, companyId, id));
    const queue = policies.get(id);
    if (!queue) continue;
    const start = new Date(ticket.startedAt);
    const due = (minutes: number | null) =>
      minutes === null
        ? null
        : addWorkingMinutes(start, minutes, queue.hours, timeZone).toISOString();
    const next = {
      firstResponseDueAt: ticket.answered
        ? ticket.firstResponseDueAt
        : due(queue.firstResponseMinutes),
      resolutionDueAt: ticket.status === "pending" || ticket.resolutionDueAt === null
        ? due(queue.resolutionMinutes)
        : ticket.resolutionDueAt,
    };
    if (
      next.firstResponseDueAt === ticket.firstResponseDueAt &&
      next.resolutionDueAt === ticket.resolutionDueAt
    ) continue;
    const outgoing = await deps.db.transaction().execute(async (trx) =>
      await redate(trx, companyId, ticket.id, next)
        ? await noteOutgoing(trx, companyId, "ticket.updated", { ticketId: ticket.id }, stamp())
        : undefined
    );
    if (!outgoing) continue;
    changed++;
    const view = await loadTicketView(deps.db, companyId, ticket.id);
    if (view) deps.events.emit("ticket.updated", { ticket: view, outgoing });
  }
  return changed;
}

/**
 * Is this ticket one placeTicket may have work for? It waits for people (pending, nobody's, no
 * bot), or it has just entered its queue (made there, or moved) without due instants yet. Other
 * changes (a tag, an accept, a message) cost no transaction.
 */
function mayPlace(ticket: TicketView, before: TicketPlacement | undefined): boolean {
  if (ticket.queueId === null || ticket.status === "closed") return false;
  const waits = ticket.status === "pending" && ticket.userId === null && !ticket.chatbot &&
    !ticket.useIntegration && ticket.promptId === null;
  const entered = before === undefined || before.queueId !== ticket.queueId;
  return waits ||
    (entered && ticket.firstResponseDueAt === null && ticket.resolutionDueAt === null);
}

/**
 * Pausing (issue 26): a message of ours stops the resolution clock of a ticket whose queue pauses
 * for the customer; the contact's next message restarts it, the due instant pushed by the working
 * time (the queue's hours) that it stood still. Each step is one guarded UPDATE (see
 * repository.ts), so hearing a message twice changes nothing more. Returns whether it changed.
 */
export async function clockOnMessage(
  deps: AppDeps,
  companyId: number,
  ticketId: number,
  fromMe: boolean,
): Promise<boolean> {
  const now = deps.clock.now();
  const outgoing = await deps.db.transaction().execute(async (trx) => {
    const changed = fromMe
      ? await pauseResolution(trx, companyId, ticketId, now.toISOString())
      : await resume(trx, companyId, ticketId, now);
    return changed
      ? await noteOutgoing(trx, companyId, "ticket.updated", { ticketId }, now.toISOString())
      : undefined;
  });
  if (!outgoing) return false;
  const ticket = await loadTicketView(deps.db, companyId, ticketId);
  if (ticket) deps.events.emit("ticket.updated", { ticket, outgoing });
  return true;
}

async function resume(db: Database, companyId: number, ticketId: number, now: Date) {
  const paused = await pausedResolution(db, companyId, ticketId);
  if (!paused?.resolutionPausedAt || !paused.resolutionDueAt) return false;
  const hours = paused.hours;
  const timeZone = await companyTimeZone(db, companyId);
  const pausedAt = new Date(paused.resolutionPausedAt);
  // What was left of the target when the clock stopped, counted again from now.
  const left = workingMsBetween(pausedAt, new Date(paused.resolutionDueAt), hours, timeZone);
  const due = addWorkingMinutes(now, left / 60_000, hours, timeZone).toISOString();
  return await resumeResolution(db, companyId, ticketId, paused.resolutionPausedAt, due);
}

/** Does this message move the ticket's resolution clock (stop it, or start it again)? */
function movesClock(e: MessageChanged): boolean {
  const { ticket, message } = e;
  if (ticket.status === "closed" || ticket.resolutionDueAt === null) return false;
  return message.fromMe
    ? ticket.status === "open" && ticket.userId !== null && ticket.resolutionPausedAt === null &&
      ticket.slaBreachedAt === null
    : ticket.resolutionPausedAt !== null;
}

/**
 * Hears the domain events through which tickets enter queues and capacity frees up, and runs the
 * work after the event's commit, one company at a time in this process (deps.afterAnswer, which
 * closeDeps drains); other processes are kept apart by the guarded UPDATE.
 */
export function wireDistribution(deps: AppDeps) {
  const later = (companyId: number, work: () => Promise<unknown>) => {
    deps.afterAnswer.run(`distribution:${companyId}`, work).catch((error) =>
      log.error("distribution failed", { companyId, error })
    );
  };
  const heard = (e: { ticket: TicketView; before?: TicketPlacement }) => {
    const { ticket, before } = e;
    if (mayPlace(ticket, before)) {
      const avoid = before?.userId != null && ticket.userId === null ? before.userId : null;
      later(ticket.companyId, () => placeTicket(deps, ticket.companyId, ticket.id, avoid));
    }
    // Someone's ticket left them (closed, returned, transferred): they may have room now.
    if (before?.userId != null && (ticket.userId !== before.userId || ticket.status === "closed")) {
      later(ticket.companyId, () => distributeWaiting(deps, ticket.companyId));
    }
  };
  deps.events.on("ticket.created", heard);
  deps.events.on("ticket.updated", heard);
  deps.events.on("ticket.closed", heard);
  deps.events.on("ticket.deleted", (e) => {
    if (e.before.userId !== null) later(e.companyId, () => distributeWaiting(deps, e.companyId));
  });
  deps.events.on("message.created", (e) => {
    if (!movesClock(e)) return;
    const { companyId, id } = e.ticket;
    later(companyId, () => clockOnMessage(deps, companyId, id, e.message.fromMe));
  });
  deps.events.on("user.presence", (e) => {
    if (e.online) later(e.companyId, () => distributeWaiting(deps, e.companyId));
  });
  // Hours or targets changed (a queue's, or whether hours count at all): due instants are
  // counted again, and a queue that opened gives out what waits.
  const retime = (companyId: number, queueId: number | null) =>
    later(companyId, async () => {
      await redateWaiting(deps, companyId, queueId);
      await distributeWaiting(deps, companyId);
    });
  deps.events.on("queue.saved", (e) => {
    if (e.retimed) retime(e.companyId, e.queue.id);
  });
  deps.events.on("setting.updated", (e) => {
    if (e.setting.key === "scheduleType") retime(e.companyId, null);
  });
  deps.events.on("company.updated", (e) => {
    if (e.hoursChanged) retime(e.company.id, null);
  });
}
