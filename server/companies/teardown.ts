import type { AppDeps } from "../context.ts";
import { log } from "../log.ts";
import { removeCompanyMedia } from "../media/store.ts";
import { listWhatsapps } from "../whatsapp/repository.ts";
import { publishSession } from "../whatsapp/view.ts";

/**
 * Stops every WhatsApp session of a company (switched off, or about to be deleted) and marks its
 * connections DISCONNECTED, so a restart does not bring them back (whatsappsToRestore also skips
 * inactive companies). Credentials are kept: switching the company on again and starting a
 * connection reconnects without a new QR.
 */
export async function stopCompanyConnections(deps: AppDeps, companyId: number) {
  const now = deps.clock.now().toISOString();
  for (const w of await listWhatsapps(deps.db, companyId)) {
    await deps.sessions.remove(companyId, w.id, false).catch((error) =>
      log.error("stopping a connection of a suspended company failed", {
        companyId,
        whatsappId: w.id,
        error,
      })
    );
  }
  const stopped = await deps.db.updateTable("whatsapps").set({
    status: "DISCONNECTED",
    qrcode: "",
    updatedAt: now,
  }).where("companyId", "=", companyId).returningAll().execute();
  for (const row of stopped) publishSession(deps.events, row);
}

/** After a company's rows are gone: its files. A failure is logged, the data is already gone. */
export async function sweepCompanyFiles(deps: AppDeps, companyId: number) {
  await removeCompanyMedia(deps.config, companyId).catch((error) =>
    log.error("removing a deleted company's media failed", { companyId, error })
  );
}
