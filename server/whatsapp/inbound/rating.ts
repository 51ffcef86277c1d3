import type { Message } from "../../../db/schema.ts";
import { noteMessage } from "../../events/outgoing_repository.ts";
import { log } from "../../log.ts";
import { loadTicketView, messageViews } from "../../tickets/view_repository.ts";
import type { DeliveryOutcome, InboundRef } from "../providers/provider.ts";
import type { InboundDeps } from "./deps.ts";
import type { TicketState } from "./lookup_repository.ts";
import type { MessageValues } from "./message_values.ts";
import { changeTicket, insertMessageUnlessStored, insertRating } from "./repository.ts";
import { Duplicate } from "./store_message.ts";

/** seeds/000 section 9: ratings 1 unsatisfied, 2 satisfied, 3 very satisfied; 0: not a rating. */
export function ratingOf(body: string): number {
  return /^[123]$/.test(body.trim()) ? Number(body.trim()) : 0;
}

/** A 1-3 answer to a rating request: recorded on the closed ticket; no new ticket opens. */
export async function recordRating(
  deps: Pick<InboundDeps, "db" | "events">,
  ref: InboundRef,
  closed: TicketState,
  rate: number,
  values: MessageValues,
  forgetMedia: () => Promise<void>,
): Promise<DeliveryOutcome> {
  const { db } = deps;
  const companyId = ref.companyId;
  let inserted: (Message & { outgoing: string }) | undefined;
  try {
    inserted = await db.transaction().execute(async (trx) => {
      const row = await insertMessageUnlessStored(trx, { ...values, ticketId: closed.id });
      if (!row) throw new Duplicate();
      await insertRating(trx, companyId, {
        ticketId: closed.id,
        userId: closed.userId,
        rate,
        createdAt: values.updatedAt,
      });
      await changeTicket(trx, companyId, closed.id, { awaitingRating: 0 });
      const outgoing = await noteMessage(
        trx,
        companyId,
        "message.created",
        row,
        values.updatedAt,
      );
      return { ...row, outgoing: outgoing.message };
    });
  } catch (error) {
    await forgetMedia().catch(() => {});
    if (!(error instanceof Duplicate)) throw error;
    return { duplicate: true };
  }
  const view = await loadTicketView(db, companyId, closed.id);
  if (view) {
    const outgoing = inserted.outgoing;
    for (const message of await messageViews(db, companyId, [inserted])) {
      deps.events.emit("message.created", { message, ticket: view, outgoing });
    }
  }
  log.info("ticket rated", { companyId, ticketId: closed.id, rate });
  return { messageId: inserted.id, ticketId: closed.id };
}
