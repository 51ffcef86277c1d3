import type { Contact } from "../../../db/schema.ts";
import { noteOutgoing } from "../../events/outgoing_repository.ts";
import { log } from "../../log.ts";
import type { InboundRef } from "../providers/provider.ts";
import { contactView } from "./contacts.ts";
import type { InboundDeps } from "./deps.ts";
import { setContactPicture } from "./repository.ts";

/** How long a profile picture lookup may take (it runs after the message is stored). */
const PICTURE_TIMEOUT_MS = 10_000;

/**
 * A new contact's profile picture, fetched after the message is stored (never blocks it); the
 * task, for the pipeline to wait on when it drains, or undefined when the connection is not
 * running.
 */
export function fetchPicture(
  deps: Pick<InboundDeps, "db" | "events" | "clock" | "sessions">,
  ref: InboundRef,
  contact: Contact,
  address: string,
): Promise<void> | undefined {
  const provider = deps.sessions.provider(ref.id);
  if (!provider) return undefined;
  return (async () => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const url = await Promise.race([
      provider.profilePictureUrl(address),
      new Promise<undefined>((resolve) => {
        timer = setTimeout(() => resolve(undefined), PICTURE_TIMEOUT_MS);
      }),
    ]).finally(() => clearTimeout(timer));
    if (!url) return;
    const now = deps.clock.now().toISOString();
    const updated = await deps.db.transaction().execute(async (trx) => {
      const row = await setContactPicture(trx, contact.companyId, contact.id, url, now);
      return row && {
        row,
        outgoing: await noteOutgoing(trx, row.companyId, "contact.updated", {
          contactId: row.id,
        }, now),
      };
    });
    if (updated) {
      deps.events.emit("contact.updated", {
        companyId: updated.row.companyId,
        contact: contactView(updated.row),
        outgoing: updated.outgoing,
      });
    }
  })().catch((error) =>
    log.warn("profile picture lookup failed", {
      whatsappId: ref.id,
      contactId: contact.id,
      error,
    })
  );
}
