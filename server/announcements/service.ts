import type { AppDeps, AuthInfo } from "../context.ts";
import { AppError, notFound } from "../errors.ts";
import { removeUpload, storeUpload, uploadResponse } from "../media/uploads.ts";
import type { Announcement } from "../../db/schema.ts";
import { type AnnouncementView, DEFAULT_ANNOUNCEMENT_PRIORITY } from "../../contract/team_types.ts";
import {
  announcementView,
  deleteAnnouncementRow,
  findAnnouncement,
  insertAnnouncement,
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

const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const JPEG = [0xff, 0xd8, 0xff];

/**
 * The image type of an upload, from its name (seeds/002 section 5: .png, .jpg, .jpeg only) and
 * its first bytes, which must agree: a renamed file of another kind is refused too.
 */
async function imageType(file: File): Promise<{ mimetype: string; extension: string }> {
  const name = file.name.toLowerCase();
  const head = new Uint8Array(await file.slice(0, 8).arrayBuffer());
  const starts = (magic: number[]) => magic.every((byte, i) => head[i] === byte);
  if (name.endsWith(".png") && starts(PNG)) return { mimetype: "image/png", extension: "png" };
  if ((name.endsWith(".jpg") || name.endsWith(".jpeg")) && starts(JPEG)) {
    return { mimetype: "image/jpeg", extension: "jpg" };
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
