import { servedType } from "../../contract/media_types.ts";

/**
 * A response's body as a blob of a type chosen here (contract/media_types.ts), never the
 * server's or a sender's word: an object URL opened in a tab renders as its blob's type on our
 * origin, so anything but an image, audio or video the page shows is a download.
 */
export async function safeBlob(res: Response): Promise<Blob> {
  return new Blob([await res.blob()], { type: servedType(res.headers.get("content-type")) });
}
