import type { Help } from "../../db/schema.ts";
import type { HelpView } from "../../contract/platform_types.ts";
import type { AppDeps } from "../context.ts";
import { AppError, notFound } from "../errors.ts";
import { type PageAnswer, pageAnswer } from "../paging.ts";
import * as repo from "./repository.ts";

/** seeds/001 section 5: the save-failure text of the Ajuda tab (sic: 'uma helpo'). */
export const HELP_SAVE_FAILED =
  "Não foi possível realizar a operação. Verifique se já existe uma helpo com o mesmo nome ou se os campos foram preenchidos corretamente.";

export type HelpInput = { title: string; description: string; video: string };

function view(h: Help): HelpView {
  return { id: h.id, title: h.title, description: h.description, video: h.video };
}

function missing() {
  return notFound("ERR_NO_HELP_FOUND", "Ajuda não encontrada");
}

export async function listHelps(deps: AppDeps): Promise<HelpView[]> {
  return (await repo.allHelps(deps.db)).map(view);
}

/** GET /api/helps: a page by title, `searchParam` on title and description. */
export async function pageHelps(
  deps: AppDeps,
  searchParam: string | undefined,
  pageNumber: number,
): Promise<PageAnswer<"helps", HelpView>> {
  const { rows, count, window } = await repo.pageHelpRows(deps.db, searchParam, pageNumber);
  return pageAnswer("helps", rows.map(view), count, window);
}

export async function createHelp(deps: AppDeps, input: HelpInput): Promise<HelpView> {
  const now = deps.clock.now().toISOString();
  const row = await deps.db.transaction().execute(async (trx) => {
    if (await repo.titleTaken(trx, input.title)) {
      throw new AppError(409, "ERR_DUPLICATED_NAME", HELP_SAVE_FAILED);
    }
    return await repo.insertHelp(trx, { ...input, createdAt: now, updatedAt: now });
  });
  return view(row);
}

export async function changeHelp(
  deps: AppDeps,
  id: number,
  input: Partial<HelpInput>,
): Promise<HelpView> {
  const now = deps.clock.now().toISOString();
  const row = await deps.db.transaction().execute(async (trx) => {
    if (input.title !== undefined && await repo.titleTaken(trx, input.title, id)) {
      throw new AppError(409, "ERR_DUPLICATED_NAME", HELP_SAVE_FAILED);
    }
    return await repo.updateHelp(trx, id, { ...input, updatedAt: now });
  });
  if (!row) throw missing();
  return view(row);
}

export async function removeHelp(deps: AppDeps, id: number) {
  if (!await repo.deleteHelp(deps.db, id)) throw missing();
}
