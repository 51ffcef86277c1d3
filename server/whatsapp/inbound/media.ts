import type { Config } from "../../config.ts";
import { log } from "../../log.ts";
import {
  cleanFilename,
  cleanMimetype,
  mediaTypeOf,
  saveMedia,
  type StoredMedia,
} from "../../media/store.ts";
import type { StorageHealth } from "../../storage/health.ts";
import { mediaPlaceholder } from "./bodies.ts";
import type { InboundMessage, MediaType } from "../providers/provider.ts";

const MEDIA_TYPES = new Set<string>([
  "image",
  "audio",
  "video",
  "application",
  "locationMessage",
  "vcard",
  "call_log",
]);

export type InboundMediaResult =
  | { kind: "none"; mediaType: MediaType | null }
  | { kind: "stored"; stored: StoredMedia; mediaType: MediaType }
  | { kind: "refused"; placeholder: string }
  /** Downloaded but not storable now (storage failed): the message is kept, its media pending. */
  | { kind: "pending"; mediaType: MediaType; mimetype: string; filename: string | null };

/**
 * Downloads and stores an inbound message's media. Media over MEDIA_MAX_BYTES or a failed
 * download is logged and replaced by a placeholder body: the message itself is never lost.
 * A type we do not know is stored as `application` (seeds/000 section 3 lists the types).
 */
export async function storeInboundMedia(
  config: Pick<Config, "mediaDir" | "mediaMaxBytes">,
  companyId: number,
  whatsappId: number,
  message: InboundMessage,
  storage?: StorageHealth,
): Promise<InboundMediaResult> {
  const declared = typeof message.mediaType === "string" && MEDIA_TYPES.has(message.mediaType)
    ? message.mediaType
    : undefined;
  const media = message.media;
  if (!media) {
    if (message.mediaType !== undefined && message.mediaType !== null && !declared) {
      return { kind: "none", mediaType: "application" };
    }
    return { kind: "none", mediaType: declared ?? null };
  }
  const mimetype = cleanMimetype(media.mimetype);
  const max = config.mediaMaxBytes;
  const context = { companyId, whatsappId, wid: message.id, mimetype };
  if (typeof media.size === "number" && media.size > max) {
    log.error("inbound media refused: larger than MEDIA_MAX_BYTES", {
      ...context,
      size: media.size,
    });
    return { kind: "refused", placeholder: mediaPlaceholder("too_large", max) };
  }
  let data: Uint8Array;
  try {
    data = await media.download();
    if (!(data instanceof Uint8Array)) throw new Error("download did not return bytes");
  } catch (error) {
    log.error("inbound media download failed (ERR_WAPP_DOWNLOAD_MEDIA)", { ...context, error });
    return { kind: "refused", placeholder: mediaPlaceholder("download_failed", max) };
  }
  if (data.byteLength > max) {
    log.error("inbound media refused: larger than MEDIA_MAX_BYTES", {
      ...context,
      size: data.byteLength,
    });
    return { kind: "refused", placeholder: mediaPlaceholder("too_large", max) };
  }
  let stored: StoredMedia;
  try {
    stored = await saveMedia(config, companyId, data, { mimetype, filename: media.filename });
  } catch (error) {
    // Issue 34: the message is stored without its file; media_retry downloads it again.
    if (!storage?.report(error, "inbound media")) throw error;
    return {
      kind: "pending",
      mediaType: declared ?? mediaTypeOf(mimetype),
      mimetype,
      filename: media.filename ? cleanFilename(media.filename) : null,
    };
  }
  // The sender's word for image, audio or video holds only when the stored type agrees: an
  // "image" message carrying an SVG is a document (contract/media_types.ts).
  const byMime = mediaTypeOf(stored.mimetype);
  const mediaType: MediaType = declared === "application" || declared === byMime
    ? declared
    : byMime;
  return { kind: "stored", stored, mediaType };
}
