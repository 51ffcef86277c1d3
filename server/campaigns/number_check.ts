import type { AppDeps } from "../context.ts";
import { log } from "../log.ts";
import type { Provider } from "../whatsapp/providers/provider.ts";

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
  return provider.kind === "simulator" ? CHECK_BATCH : 20;
}

type Unchecked = { id: number; number: string; contactListId: number };

/** Checks `items` through `provider` and stores the answers; returns how many were stored. */
export async function checkItems(
  deps: AppDeps,
  companyId: number,
  provider: Provider,
  items: Unchecked[],
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
      await deps.db.updateTable("contact_list_items").set({
        isWhatsappValid: flag,
        checkedAt: now,
      }).where("companyId", "=", companyId).where("id", "in", ids.slice(i, i + 500))
        .where("isWhatsappValid", "is", null).execute();
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
  let q = deps.db.selectFrom("whatsapps").select(["id"]).where("companyId", "=", companyId);
  if (whatsappId !== undefined) q = q.where("id", "=", whatsappId);
  const rows = await q.orderBy("isDefault", "desc").orderBy("id").execute();
  for (const row of rows) {
    const provider = deps.sessions.connectedProvider(row.id);
    if (provider) return provider;
  }
  return undefined;
}

/** One background pass: a batch of unchecked items of each company that has a connection. */
export async function checkPendingNumbers(deps: AppDeps): Promise<number> {
  const companies = await deps.db.selectFrom("contact_list_items").select("companyId")
    .where("isWhatsappValid", "is", null).groupBy("companyId").execute();
  let stored = 0;
  for (const { companyId } of companies) {
    const provider = await connectedProviderOf(deps, companyId);
    if (!provider) continue;
    const items = await deps.db.selectFrom("contact_list_items")
      .select(["id", "number", "contactListId"]).where("companyId", "=", companyId)
      .where("isWhatsappValid", "is", null).orderBy("id").limit(checkBatchOf(provider)).execute();
    stored += await checkItems(deps, companyId, provider, items);
  }
  return stored;
}
