import type { Config } from "../config.ts";
import type { Database } from "../../db/client.ts";
import { log } from "../log.ts";
import { PARTIAL_PREFIX } from "./store.ts";
import { mediaKeysOf } from "./sweep_repository.ts";

/** A file younger than this may still be waiting for its row (written before its transaction). */
export const ORPHAN_AGE_MS = 60 * 60 * 1000;

/** The names saveMedia and linkMedia give (a random UUID): nothing else is ever swept. */
const STORED_NAME = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.[a-z0-9]{1,8}$/;

/**
 * Removes media files no row points to, older than an hour (issue 34): partials of a write that a
 * crash interrupted, files of a refused message written before the refusal. Runs at start and
 * daily (jobs/registry.ts); what it removed is one log line. Twice is harmless: a file is removed
 * only when no row names it, and a missing file is skipped.
 */
export async function sweepOrphanMedia(
  deps: { db: Database; config: Pick<Config, "mediaDir"> },
): Promise<{ removed: number; bytes: number }> {
  const root = deps.config.mediaDir;
  // Files carry the wall clock's times: compared with it, not with the app's clock.
  const before = Date.now() - ORPHAN_AGE_MS;
  let removed = 0;
  let bytes = 0;
  for (const company of await entries(root)) {
    if (!company.isDirectory || !/^\d+$/.test(company.name)) continue;
    const companyId = Number(company.name);
    const keys = await mediaKeysOf(deps.db, companyId);
    for (const file of await entries(`${root}/${company.name}`)) {
      if (!file.isFile) continue;
      const partial = file.name.startsWith(PARTIAL_PREFIX);
      if (!partial && (!STORED_NAME.test(file.name) || keys.has(`${companyId}/${file.name}`))) {
        continue;
      }
      const path = `${root}/${company.name}/${file.name}`;
      try {
        const info = await Deno.stat(path);
        if ((info.mtime?.getTime() ?? Infinity) > before) continue;
        await Deno.remove(path);
        removed++;
        bytes += info.size;
      } catch (error) {
        if (!(error instanceof Deno.errors.NotFound)) throw error;
      }
    }
  }
  if (removed > 0) log.info("orphan media files removed", { removed, bytes });
  return { removed, bytes };
}

async function entries(dir: string): Promise<Deno.DirEntry[]> {
  try {
    return await Array.fromAsync(Deno.readDir(dir));
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return [];
    throw error;
  }
}
