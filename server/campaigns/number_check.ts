import type { AppDeps } from "../context.ts";
import { log } from "../log.ts";
import { capabilitiesOf } from "../../contract/channels.ts";
import type { Provider } from "../whatsapp/providers/provider.ts";
import * as repo from "./shipping_repository.ts";

/**
 * Whether each contact-list item is on WhatsApp (seeds/002 section 3: isWhatsappValid), asked of
 * a connected provider (`checkNumber`). Items start unchecked (null); the campaign job checks
 * them in batches in the background, and a campaign about to start checks what is left of its
 * list through its own connection. A check that fails (connection dropped) leaves the item
 * unchecked for the next tick. The simulator's rule is in its provider (numbers ending in 404
 * are "not on WhatsApp").
 */
export const CHECK_BATCH = 500;

/**
 * Numbers asked of one provider per tick: the simulator answers locally; a real number asks
 * WhatsApp once per number, and hundreds of lookups a second is what gets numbers banned.
 */
export function checkBatchOf(provider: Provider): number {
  return capabilitiesOf(provider.kind).simulated ? CHECK_BATCH : 20;
}

/** Checks `items` through `provider` and stores the answers; returns how many were stored. */
export async function checkItems(
  deps: AppDeps,
  companyId: number,
  provider: Provider,
  items: repo.UncheckedItem[],
): Promise<number> {
  const valid: number[] = [];
  const invalid: number[] = [];
  for (const item of items) {
    try {
      const answer = await provider.checkNumber(item.number);
      (answer.exists ? valid : invalid).push(item.id);
    } catch (error) {
      log.warn("contact list: number check failed, will retry", { companyId, error });
      break;
    }
  }
  const now = deps.clock.now().toISOString();
  for (const [ids, flag] of [[valid, 1], [invalid, 0]] as const) {
    for (let i = 0; i < ids.length; i += 500) {
      await repo.setItemsValid(deps.db, companyId, ids.slice(i, i + 500), flag, now);
    }
  }
  const stored = valid.length + invalid.length;
  if (stored > 0) {
    deps.events.emit("list.changed", {
      companyId,
      resource: "contactListItem",
      change: { action: "reload" },
    });
    deps.events.emit("list.changed", {
      companyId,
      resource: "contactList",
      change: { action: "reload" },
    });
  }
  return stored;
}

/** The first connected provider of the company, its default connection first. */
export async function connectedProviderOf(deps: AppDeps, companyId: number, whatsappId?: number) {
  for (const id of await repo.connectionIds(deps.db, companyId, whatsappId)) {
    const provider = deps.sessions.connectedProvider(id);
    if (provider) return provider;
  }
  return undefined;
}

/** One background pass: a batch of unchecked items of each company that has a connection. */
export async function checkPendingNumbers(deps: AppDeps): Promise<number> {
  let stored = 0;
  for (const companyId of await repo.companiesWithUncheckedItems(deps.db)) {
    const provider = await connectedProviderOf(deps, companyId);
    if (!provider) continue;
    const items = await repo.uncheckedItems(deps.db, companyId, null, checkBatchOf(provider));
    stored += await checkItems(deps, companyId, provider, items);
  }
  return stored;
}
