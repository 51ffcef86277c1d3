import type { Ticket, TicketStatus } from "../../db/schema.ts";
import { AppError, badRequest } from "../errors.ts";
import type { Viewer } from "./access.ts";

/* Which transition of seeds/000 section 4 a PUT /api/tickets/:id asks for (rules only, no I/O). */

export type TicketAction = "accept" | "return" | "resolve" | "reopen" | "transfer";

export type UpdateTicketInput = {
  /** Names the transition explicitly; without it the body's shape decides (Whaticket's client). */
  action?: TicketAction;
  status?: TicketStatus;
  userId?: number | null;
  queueId?: number | null;
  whatsappId?: number | null;
};

export type Plan =
  | { kind: "accept" }
  | { kind: "return" }
  | { kind: "resolve" }
  | { kind: "reopen" }
  | { kind: "transfer"; queueId: number | null; userId: number | null; whatsappId: number | null }
  | { kind: "none" };

export function invalid(message: string): AppError {
  return badRequest("ERR_INVALID_TRANSITION", message);
}

/**
 * Reads PUT /api/tickets/:id as one of the transitions of seeds/000 section 4, from the current
 * status and the body Whaticket's client sends for each action:
 * - {status: "open"} on a pending ticket: accept (the caller becomes the user);
 * - {status: "open"} on a closed ticket: reopen for the caller;
 * - {status: "pending"} on an open ticket, no queue change: return (no user);
 * - {status: "closed"}: resolve (open or pending);
 * - {queueId, userId?} (optionally with status "pending"/"open", whatsappId): transfer; without a
 *   user the ticket becomes pending with no user.
 */
/** Which statuses each explicit action starts from (seeds/000 section 4). */
const ACTION_FROM: Record<TicketAction, readonly TicketStatus[]> = {
  accept: ["pending"],
  return: ["open"],
  resolve: ["open", "pending"],
  reopen: ["closed"],
  transfer: ["open", "pending"],
};

const ACTION_STATUS: Record<Exclude<TicketAction, "transfer">, TicketStatus> = {
  accept: "open",
  return: "pending",
  resolve: "closed",
  reopen: "open",
};

export function planOf(ticket: Ticket, input: UpdateTicketInput, viewer: Viewer): Plan {
  if (input.action) {
    if (!ACTION_FROM[input.action].includes(ticket.status)) {
      throw invalid(`Não é possível ${ACTION_VERB[input.action]} um ticket ${ticket.status}`);
    }
    if (input.action !== "transfer") {
      const plan = planByShape(ticket, { ...input, status: ACTION_STATUS[input.action] }, viewer);
      if (plan.kind !== input.action) {
        throw invalid(`Não é possível ${ACTION_VERB[input.action]} este ticket`);
      }
      return plan;
    }
    if (input.queueId === undefined && input.userId === undefined && input.whatsappId == null) {
      throw badRequest("ERR_VALIDATION", "queueId: Selecione uma fila", {
        queueId: ["Selecione uma fila"],
      });
    }
    return {
      kind: "transfer",
      queueId: input.queueId !== undefined ? input.queueId : ticket.queueId,
      userId: input.userId ?? null,
      whatsappId: input.whatsappId ?? ticket.whatsappId,
    };
  }
  return planByShape(ticket, input, viewer);
}

const ACTION_VERB: Record<TicketAction, string> = {
  accept: "aceitar",
  return: "devolver",
  resolve: "finalizar",
  reopen: "reabrir",
  transfer: "transferir",
};

function planByShape(ticket: Ticket, input: UpdateTicketInput, viewer: Viewer): Plan {
  const queueChange = input.queueId !== undefined && input.queueId !== ticket.queueId;
  const userGiven = input.userId !== undefined && input.userId !== null;
  const userChange = userGiven && input.userId !== ticket.userId;
  const whatsappChange = input.whatsappId != null && input.whatsappId !== ticket.whatsappId;
  const transfer = (userId: number | null): Plan => ({
    kind: "transfer",
    queueId: input.queueId !== undefined ? input.queueId : ticket.queueId,
    userId,
    whatsappId: input.whatsappId ?? ticket.whatsappId,
  });
  switch (input.status) {
    case "closed":
      if (ticket.status === "closed") throw invalid("Ticket já está finalizado");
      return { kind: "resolve" };
    case "open":
      if (ticket.status === "closed") return { kind: "reopen" };
      if (userChange && input.userId !== viewer.userId) return transfer(input.userId!);
      if (ticket.status === "pending") return { kind: "accept" };
      if (ticket.userId !== null && ticket.userId !== viewer.userId) {
        throw invalid("Ticket já está em atendimento");
      }
      if (queueChange || whatsappChange) return transfer(ticket.userId);
      return { kind: "none" };
    case "pending":
      if (ticket.status === "closed") throw invalid("Um ticket finalizado só pode ser reaberto");
      if (queueChange || whatsappChange || userGiven) return transfer(null);
      if (ticket.status === "open") return { kind: "return" };
      return { kind: "none" };
    default:
      if (
        !queueChange && !userChange && !whatsappChange &&
        !(input.userId === null && ticket.userId !== null)
      ) {
        return { kind: "none" };
      }
      if (ticket.status === "closed") throw invalid("Um ticket finalizado só pode ser reaberto");
      // Transfer dialog: no user chosen means back to pending with no user (seeds/000 s. 4).
      return transfer(userGiven ? input.userId! : null);
  }
}
