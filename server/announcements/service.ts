import type { AppDeps, AuthInfo } from "../context.ts";
import { AppError, notFound } from "../errors.ts";
import { typeFromContent } from "../media/store.ts";
import { removeUpload, storeUpload, uploadResponse } from "../media/uploads.ts";
import type { Announcement } from "../../db/schema.ts";
import { type AnnouncementView, DEFAULT_ANNOUNCEMENT_PRIORITY } from "../../contract/team_types.ts";
import type { PageAnswer } from "../paging.ts";
import {
  announcementView,
  deleteAnnouncementRow,
  findAnnouncement,
  insertAnnouncement,
  markAnnouncementsRead,
  pageAnnouncements,
  updateAnnouncementRow,
} from "./repository.ts";

/**
 * Announcements (seeds/002 sections 2.6, 3, 5, 6, 7): written by the platform's super users (the
 * routes check it), read by every user of every company while active. Changes go live to every
 * connected user as `company-<id>-announcement` `{action, record, id}`: an inactive or deleted
 * one is a `delete` for everyone but super users, who keep managing it.
 */

export type AnnouncementInput = {
  title?: string;
  text?: string;
  priority?: number;
  status?: boolean;
};

function announcementNotFound(): AppError {
  return notFound("ERR_NO_ANNOUNCEMENT_FOUND", "Informativo não encontrado");
}

function publish(deps: AppDeps, action: "create" | "update", row: Announcement) {
  deps.events.emit("announcement.saved", {
    record: announcementView(row),
    created: action === "create",
  });
}

/**
 * GET /api/announcements: newest first; `activeOnly` is every user's bell, the super users' page
 * reads them all. `read` is the caller's own.
 */
export async function listAnnouncements(
  deps: AppDeps,
  auth: AuthInfo,
  options: { activeOnly: boolean; searchParam?: string; pageNumber: number },
): Promise<PageAnswer<"records", AnnouncementView>> {
  return await pageAnnouncements(deps.db, auth, options);
}

/** POST /api/announcements/read: the bell was opened; a repeat is harmless. */
export async function markRead(deps: AppDeps, auth: AuthInfo, ids: readonly number[]) {
  await markAnnouncementsRead(deps.db, auth, ids, deps.clock.now().toISOString());
}

/** GET /api/announcements/:id: its view, for whoever may read it. */
export async function showAnnouncement(
  deps: AppDeps,
  auth: AuthInfo,
  id: number,
): Promise<AnnouncementView> {
  return announcementView(await readAnnouncement(deps, auth, id));
}

/** An announcement the caller may read: any for super users, the active ones for everyone else. */
export async function readAnnouncement(
  deps: AppDeps,
  auth: AuthInfo,
  id: number,
): Promise<Announcement> {
  const row = await findAnnouncement(deps.db, id);
  if (!row || (row.status !== 1 && !auth.isSuper)) throw announcementNotFound();
  return row;
}

/** POST /api/announcements (super users). */
export async function createAnnouncement(
  deps: AppDeps,
  auth: AuthInfo,
  input: Required<Pick<AnnouncementInput, "title" | "text">> & AnnouncementInput,
): Promise<AnnouncementView> {
  const now = deps.clock.now().toISOString();
  const row = await insertAnnouncement(deps.db, {
    companyId: auth.companyId,
    title: input.title,
    text: input.text,
    priority: input.priority ?? DEFAULT_ANNOUNCEMENT_PRIORITY,
    status: input.status === false ? 0 : 1,
    mediaPath: null,
    mediaName: null,
    createdAt: now,
    updatedAt: now,
  });
  publish(deps, "create", row);
  return announcementView(row);
}

/** PUT /api/announcements/:id (super users). */
export async function changeAnnouncement(
  deps: AppDeps,
  id: number,
  input: AnnouncementInput,
): Promise<AnnouncementView> {
  const row = await updateAnnouncementRow(deps.db, id, {
    title: input.title,
    text: input.text,
    priority: input.priority,
    status: input.status === undefined ? undefined : input.status ? 1 : 0,
    updatedAt: deps.clock.now().toISOString(),
  });
  if (!row) throw announcementNotFound();
  publish(deps, "update", row);
  return announcementView(row);
}

/** DELETE /api/announcements/:id (super users): the row, its reads and its image. */
export async function removeAnnouncement(deps: AppDeps, id: number): Promise<void> {
  const row = await findAnnouncement(deps.db, id);
  if (!row) throw announcementNotFound();
  await deleteAnnouncementRow(deps.db, id);
  await removeUpload(deps, row.companyId, row.mediaPath);
  deps.events.emit("announcement.deleted", { id });
}

/**
 * The image type of an upload, from its name (seeds/002 section 5: .png, .jpg, .jpeg only) and
 * its first bytes (the media store's typeFromContent), which must agree: a renamed file of
 * another kind is refused too.
 */
async function imageType(file: File): Promise<{ mimetype: string; extension: string }> {
  const name = file.name.toLowerCase();
  const type = typeFromContent(new Uint8Array(await file.slice(0, 16).arrayBuffer()));
  if (name.endsWith(".png") && type === "image/png") return { mimetype: type, extension: "png" };
  if ((name.endsWith(".jpg") || name.endsWith(".jpeg")) && type === "image/jpeg") {
    return { mimetype: type, extension: "jpg" };
  }
  throw new AppError(400, "ERR_INVALID_MEDIA", "Envie uma imagem .png, .jpg ou .jpeg", {
    fields: { file: ["Envie uma imagem .png, .jpg ou .jpeg"] },
  });
}

/**
 * POST /api/announcements/:id/media-upload (super users): replaces the image. The stored file
 * and the name kept are ours (a random name with the type's extension), never the client's.
 */
export async function attachAnnouncementImage(
  deps: AppDeps,
  auth: AuthInfo,
  id: number,
  file: File,
): Promise<AnnouncementView> {
  const current = await findAnnouncement(deps.db, id);
  if (!current) throw announcementNotFound();
  const type = await imageType(file);
  const ours = new File([file], `imagem.${type.extension}`, { type: type.mimetype });
  const stored = await storeUpload(deps, auth.companyId, ours);
  const name = stored.path.slice(stored.path.indexOf("/") + 1);
  const row = await updateAnnouncementRow(deps.db, id, {
    companyId: auth.companyId,
    mediaPath: stored.path,
    mediaName: name,
    updatedAt: deps.clock.now().toISOString(),
  });
  if (!row) {
    await removeUpload(deps, auth.companyId, stored.path);
    throw announcementNotFound();
  }
  await removeUpload(deps, current.companyId, current.mediaPath);
  publish(deps, "update", row);
  return announcementView(row);
}

/** DELETE /api/announcements/:id/media-upload (super users). */
export async function detachAnnouncementImage(
  deps: AppDeps,
  id: number,
): Promise<AnnouncementView> {
  const current = await findAnnouncement(deps.db, id);
  if (!current) throw announcementNotFound();
  const row = (await updateAnnouncementRow(deps.db, id, {
    mediaPath: null,
    mediaName: null,
    updatedAt: deps.clock.now().toISOString(),
  }))!;
  await removeUpload(deps, current.companyId, current.mediaPath);
  publish(deps, "update", row);
  return announcementView(row);
}

/** GET /api/announcements/:id/media: the image, for whoever may read the announcement. */
export async function announcementImage(
  deps: AppDeps,
  auth: AuthInfo,
  id: number,
): Promise<Response> {
  const row = await readAnnouncement(deps, auth, id);
  if (!row.mediaPath) throw notFound("ERR_NO_MEDIA_FOUND", "Mídia não encontrada");
  return await uploadResponse(deps, row.companyId, row.mediaPath, row.mediaName ?? "imagem.jpg");
}
