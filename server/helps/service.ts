import { sql } from "kysely";
import type { Database } from "../../db/client.ts";
import type { Help } from "../../db/schema.ts";
import type { HelpView } from "../../contract/platform_types.ts";
import type { AppDeps } from "../context.ts";
import { AppError, notFound } from "../errors.ts";
import { likePattern, type PageAnswer, pageAnswer, pageWindow } from "../paging.ts";

/** seeds/001 section 5: the save-failure text of the Ajuda tab (sic: 'uma helpo'). */
export const HELP_SAVE_FAILED =
  "Não foi possível realizar a operação. Verifique se já existe uma helpo com o mesmo nome ou se os campos foram preenchidos corretamente.";

export type HelpInput = { title: string; description: string; video: string };

function view(h: Help): HelpView {
  return { id: h.id, title: h.title, description: h.description, video: h.video };
}

async function titleTaken(db: Database, title: string, exceptId?: number) {
  let q = db.selectFrom("helps").select("id").where(
    (eb) => eb(eb.fn("lower", ["title"]), "=", title.toLowerCase()),
  );
  if (exceptId !== undefined) q = q.where("id", "!=", exceptId);
  return (await q.executeTakeFirst()) !== undefined;
}

function missing() {
  return notFound("ERR_NO_HELP_FOUND", "Ajuda não encontrada");
}

export async function listHelps(deps: AppDeps): Promise<HelpView[]> {
  const rows = await deps.db.selectFrom("helps").selectAll().orderBy("title").orderBy("id")
    .execute();
  return rows.map(view);
}

/** GET /api/helps: a page by title, `searchParam` on title and description. */
export async function pageHelps(
  deps: AppDeps,
  searchParam: string | undefined,
  pageNumber: number,
): Promise<PageAnswer<"helps", HelpView>> {
  const window = pageWindow(pageNumber);
  const text = searchParam?.trim();
  let rows = deps.db.selectFrom("helps").selectAll();
  let counted = deps.db.selectFrom("helps").select((eb) => eb.fn.countAll<number>().as("n"));
  if (text) {
    const like = sql<boolean>`(title LIKE ${likePattern(text)} ESCAPE '\\'
      OR description LIKE ${likePattern(text)} ESCAPE '\\')`;
    rows = rows.where(like);
    counted = counted.where(like);
  }
  const [list, total] = await Promise.all([
    rows.orderBy("title").orderBy("id").limit(window.limit).offset(window.offset).execute(),
    counted.executeTakeFirstOrThrow(),
  ]);
  return pageAnswer("helps", list.map(view), Number(total.n), window);
}

export async function createHelp(deps: AppDeps, input: HelpInput): Promise<HelpView> {
  const now = deps.clock.now().toISOString();
  const row = await deps.db.transaction().execute(async (trx) => {
    if (await titleTaken(trx, input.title)) {
      throw new AppError(409, "ERR_DUPLICATED_NAME", HELP_SAVE_FAILED);
    }
    return await trx.insertInto("helps").values({ ...input, createdAt: now, updatedAt: now })
      .returningAll().executeTakeFirstOrThrow();
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
    if (input.title !== undefined && await titleTaken(trx, input.title, id)) {
      throw new AppError(409, "ERR_DUPLICATED_NAME", HELP_SAVE_FAILED);
    }
    return await trx.updateTable("helps").set({ ...input, updatedAt: now }).where("id", "=", id)
      .returningAll().executeTakeFirst();
  });
  if (!row) throw missing();
  return view(row);
}

export async function removeHelp(deps: AppDeps, id: number) {
  const result = await deps.db.deleteFrom("helps").where("id", "=", id).executeTakeFirst();
  if (Number(result.numDeletedRows) === 0) throw missing();
}
