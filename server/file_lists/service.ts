import type { Database } from "../../db/client.ts";
import type { FileList } from "../../db/schema.ts";
import type { FileListOptionView, FileListView } from "../../contract/campaign_types.ts";
import type { AppDeps } from "../context.ts";
import { AppError, notFound } from "../errors.ts";
import { removeUpload, storeUpload, uploadResponse } from "../media/uploads.ts";
import { pageAnswer } from "../paging.ts";
import * as repo from "./repository.ts";

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
  const options = await repo.optionsOf(db, companyId, lists.map((l) => l.id));
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

export async function readFileList(deps: AppDeps, companyId: number, id: number) {
  const list = await repo.findFileList(deps.db, companyId, id);
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
  const { rows, count, window } = await repo.pageFileListRows(
    deps.db,
    companyId,
    searchParam,
    pageNumber,
  );
  return pageAnswer("files", await views(deps.db, companyId, rows), count, window);
}

export async function allFileLists(deps: AppDeps, companyId: number) {
  return await repo.fileListNames(deps.db, companyId);
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
  const id = await repo.insertFileList(deps.db, companyId, { userId, ...input, now });
  return await publish(deps, companyId, id, "create");
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
  await deps.db.transaction().execute((trx) =>
    repo.updateFileList(trx, companyId, id, {
      name: input.name,
      message: input.message,
      renamed: input.options ?? [],
      removedIds: removed.map((o) => o.id),
      now,
    })
  );
  for (const option of removed) await removeUpload(deps, companyId, option.path);
  return await publish(deps, companyId, id, "update");
}

export async function deleteFileList(deps: AppDeps, companyId: number, id: number) {
  const current = await readFileList(deps, companyId, id);
  await repo.deleteFileList(deps.db, companyId, id);
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
    await repo.insertOptions(
      deps.db,
      companyId,
      id,
      stored.map(({ saved, name }) => ({
        name: name.slice(0, 100),
        path: saved.path,
        mediaType: saved.mimetype,
      })),
      now,
    );
  }
  return await publish(deps, companyId, id, "update");
}

/** The option's file, for the caller's company only. */
export async function optionFile(deps: AppDeps, companyId: number, id: number, optionId: number) {
  const option = await repo.findOption(deps.db, companyId, id, optionId);
  if (!option) throw fileListNotFound();
  return await uploadResponse(deps, companyId, option.path, option.name);
}
