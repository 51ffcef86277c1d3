import type { Database } from "../../db/client.ts";
import type { FileList, FileListOption } from "../../db/schema.ts";
import { pageWindow } from "../paging.ts";
import { nameHolds, pageByName } from "../paging_repository.ts";

/** SQL of file lists and their option files. Every function is company-scoped. */

export async function optionsOf(
  db: Database,
  companyId: number,
  fileListIds: number[],
): Promise<FileListOption[]> {
  return await db.selectFrom("file_list_options").selectAll()
    .where("companyId", "=", companyId).where("fileListId", "in", fileListIds)
    .orderBy("id").execute();
}

export async function findFileList(
  db: Database,
  companyId: number,
  id: number,
): Promise<FileList | undefined> {
  return await db.selectFrom("file_lists").selectAll().where("companyId", "=", companyId)
    .where("id", "=", id).executeTakeFirst();
}

/** A page by name, `searchParam` on the name. */
export async function pageFileListRows(
  db: Database,
  companyId: number,
  searchParam: string | undefined,
  pageNumber: number,
) {
  const q = db.selectFrom("file_lists").where("companyId", "=", companyId);
  const window = pageWindow(pageNumber);
  return { ...await pageByName(nameHolds(q, searchParam), window), window };
}

export async function fileListNames(db: Database, companyId: number) {
  return await db.selectFrom("file_lists").select(["id", "name"])
    .where("companyId", "=", companyId).orderBy("name").execute();
}

export async function insertFileList(
  db: Database,
  companyId: number,
  row: { userId: number; name: string; message: string; now: string },
): Promise<number> {
  const inserted = await db.insertInto("file_lists").values({
    companyId,
    userId: row.userId,
    name: row.name,
    message: row.message,
    createdAt: row.now,
    updatedAt: row.now,
  }).returning("id").executeTakeFirstOrThrow();
  return inserted.id;
}

/** Name and message; the options kept get their new names, the others are deleted. */
export async function updateFileList(
  db: Database,
  companyId: number,
  id: number,
  change: {
    name?: string;
    message?: string;
    renamed: { id: number; name: string }[];
    removedIds: number[];
    now: string;
  },
) {
  const now = change.now;
  await db.updateTable("file_lists").set({
    name: change.name,
    message: change.message,
    updatedAt: now,
  }).where("companyId", "=", companyId).where("id", "=", id).execute();
  for (const option of change.renamed) {
    await db.updateTable("file_list_options").set({ name: option.name, updatedAt: now })
      .where("companyId", "=", companyId).where("fileListId", "=", id)
      .where("id", "=", option.id).execute();
  }
  if (change.removedIds.length > 0) {
    await db.deleteFrom("file_list_options").where("companyId", "=", companyId)
      .where("id", "in", change.removedIds).execute();
  }
}

export async function deleteFileList(db: Database, companyId: number, id: number) {
  await db.deleteFrom("file_lists").where("companyId", "=", companyId).where("id", "=", id)
    .execute();
}

export async function insertOptions(
  db: Database,
  companyId: number,
  fileListId: number,
  options: { name: string; path: string; mediaType: string }[],
  now: string,
) {
  await db.insertInto("file_list_options").values(options.map((o) => ({
    companyId,
    fileListId,
    name: o.name,
    path: o.path,
    mediaType: o.mediaType,
    createdAt: now,
    updatedAt: now,
  }))).execute();
}

export async function findOption(
  db: Database,
  companyId: number,
  fileListId: number,
  id: number,
): Promise<FileListOption | undefined> {
  return await db.selectFrom("file_list_options").selectAll()
    .where("companyId", "=", companyId).where("fileListId", "=", fileListId).where("id", "=", id)
    .executeTakeFirst();
}
