import { sql } from "kysely";
import type { Database } from "../../db/client.ts";
import type { FileList } from "../../db/schema.ts";
import type { FileListOptionView, FileListView } from "../../contract/campaign_types.ts";
import type { AppDeps } from "../context.ts";
import { AppError, notFound } from "../errors.ts";
import { removeUpload, storeUpload, uploadResponse } from "../media/uploads.ts";
import { likePattern, pageAnswer, pageWindow } from "../paging.ts";

/**
 * File lists (seeds/002 sections 2.5, 3, 5, 7; issue 13 deliverable 2): a name, a message and
 * option files. Files are stored under names we choose (server/media/store.ts), never the
 * uploader's, and served only through /api/files/:id/options/:optionId.
 */
export function fileListNotFound(): AppError {
  return notFound("ERR_NO_FILE_LIST_FOUND", "Lista de arquivos não encontrada");
}

async function views(db: Database, companyId: number, lists: FileList[]): Promise<FileListView[]> {
  if (lists.length === 0) return [];
  const options = await db.selectFrom("file_list_options").selectAll()
    .where("companyId", "=", companyId).where("fileListId", "in", lists.map((l) => l.id))
    .orderBy("id").execute();
  return lists.map((l) => ({
    id: l.id,
    name: l.name,
    message: l.message,
    userId: l.userId,
    companyId: l.companyId,
    options: options.filter((o) => o.fileListId === l.id).map((o): FileListOptionView => ({
      id: o.id,
      name: o.name,
      path: o.path,
      mediaType: o.mediaType,
      file: `/api/files/${l.id}/options/${o.id}`,
    })),
    createdAt: l.createdAt,
    updatedAt: l.updatedAt,
  }));
}

async function find(db: Database, companyId: number, id: number) {
  return await db.selectFrom("file_lists").selectAll().where("companyId", "=", companyId)
    .where("id", "=", id).executeTakeFirst();
}

export async function readFileList(deps: AppDeps, companyId: number, id: number) {
  const list = await find(deps.db, companyId, id);
  if (!list) throw fileListNotFound();
  return (await views(deps.db, companyId, [list]))[0];
}

/** GET /api/files: `{ files, count, hasMore }` by name. */
export async function pageFileLists(
  deps: AppDeps,
  companyId: number,
  searchParam: string | undefined,
  pageNumber: number,
) {
  let q = deps.db.selectFrom("file_lists").where("companyId", "=", companyId);
  const text = searchParam?.trim();
  if (text) q = q.where(sql<boolean>`name LIKE ${likePattern(text)} ESCAPE '\\'`);
  const window = pageWindow(pageNumber);
  const rows = await q.selectAll().orderBy("name").orderBy("id").limit(window.limit)
    .offset(window.offset).execute();
  const total = await q.select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow();
  return pageAnswer("files", await views(deps.db, companyId, rows), Number(total.n), window);
}

export async function allFileLists(deps: AppDeps, companyId: number) {
  return await deps.db.selectFrom("file_lists").select(["id", "name"])
    .where("companyId", "=", companyId).orderBy("name").execute();
}

async function publish(deps: AppDeps, companyId: number, id: number, action: "create" | "update") {
  const view = await readFileList(deps, companyId, id);
  deps.events.emit("list.changed", {
    companyId,
    resource: "file",
    change: { action, record: view },
  });
  return view;
}

export async function createFileList(
  deps: AppDeps,
  companyId: number,
  userId: number,
  input: { name: string; message: string },
) {
  const now = deps.clock.now().toISOString();
  const row = await deps.db.insertInto("file_lists").values({
    companyId,
    userId,
    name: input.name,
    message: input.message,
    createdAt: now,
    updatedAt: now,
  }).returning("id").executeTakeFirstOrThrow();
  return await publish(deps, companyId, row.id, "create");
}

/**
 * PUT /api/files/:id: name and message; `options` lists the option ids to keep (with their new
 * names), so an option left out is removed with its file.
 */
export async function updateFileList(
  deps: AppDeps,
  companyId: number,
  id: number,
  input: { name?: string; message?: string; options?: { id: number; name: string }[] },
) {
  const current = await readFileList(deps, companyId, id);
  const now = deps.clock.now().toISOString();
  const removed = input.options
    ? current.options.filter((o) => !input.options!.some((k) => k.id === o.id))
    : [];
  await deps.db.transaction().execute(async (trx) => {
    await trx.updateTable("file_lists").set({
      name: input.name,
      message: input.message,
      updatedAt: now,
    }).where("companyId", "=", companyId).where("id", "=", id).execute();
    for (const option of input.options ?? []) {
      await trx.updateTable("file_list_options").set({ name: option.name, updatedAt: now })
        .where("companyId", "=", companyId).where("fileListId", "=", id)
        .where("id", "=", option.id).execute();
    }
    if (removed.length > 0) {
      await trx.deleteFrom("file_list_options").where("companyId", "=", companyId)
        .where("id", "in", removed.map((o) => o.id)).execute();
    }
  });
  for (const option of removed) await removeUpload(deps, companyId, option.path);
  return await publish(deps, companyId, id, "update");
}

export async function deleteFileList(deps: AppDeps, companyId: number, id: number) {
  const current = await readFileList(deps, companyId, id);
  await deps.db.deleteFrom("file_lists").where("companyId", "=", companyId).where("id", "=", id)
    .execute();
  for (const option of current.options) await removeUpload(deps, companyId, option.path);
  deps.events.emit("list.changed", {
    companyId,
    resource: "file",
    change: { action: "delete", id },
  });
}

/** POST /api/files/uploadList/:id: several files, each an option with its name and type. */
export async function uploadOptions(
  deps: AppDeps,
  companyId: number,
  id: number,
  files: { file: File; name: string }[],
) {
  await readFileList(deps, companyId, id);
  const now = deps.clock.now().toISOString();
  const stored = [];
  for (const { file, name } of files) {
    const saved = await storeUpload(deps, companyId, file);
    stored.push({ saved, name: name.trim() || saved.filename });
  }
  if (stored.length > 0) {
    await deps.db.insertInto("file_list_options").values(stored.map(({ saved, name }) => ({
      companyId,
      fileListId: id,
      name: name.slice(0, 100),
      path: saved.path,
      mediaType: saved.mimetype,
      createdAt: now,
      updatedAt: now,
    }))).execute();
  }
  return await publish(deps, companyId, id, "update");
}

/** The option's file, for the caller's company only. */
export async function optionFile(deps: AppDeps, companyId: number, id: number, optionId: number) {
  const option = await deps.db.selectFrom("file_list_options").selectAll()
    .where("companyId", "=", companyId).where("fileListId", "=", id).where("id", "=", optionId)
    .executeTakeFirst();
  if (!option) throw fileListNotFound();
  return await uploadResponse(deps, companyId, option.path, option.name);
}
