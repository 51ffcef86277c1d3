import { type MediaConfig, saveMedia, typeFromContent } from "../media/store.ts";

/**
 * A message's file from the source's media folder (its `public/`), stored with our rules
 * (issue 47): a random safe name in the company's folder, the type read from the file's first
 * bytes by the store's typeFromContent (the source's name and declared type are not trusted), the size limit of uploads. A file
 * that is not there is reported, never fatal.
 */
export type CopiedMedia = { path: string; mimetype: string; name: string };

/** The file's path inside `dir`, or null when the name would leave it. */
export function insideFolder(dir: string, name: string): string | null {
  const clean = name.replace(/^\/+/, "");
  if (clean === "" || clean.split("/").some((part) => part === ".." || part === "")) return null;
  return `${dir.replace(/\/+$/, "")}/${clean}`;
}

export async function copyMedia(
  config: MediaConfig,
  dir: string,
  companyId: number,
  mediaUrl: string,
  sourceCompanyId: unknown,
): Promise<CopiedMedia | "missing"> {
  // whaticket-community keeps files at public/<name>; the SaaS line at public/company<id>/<name>
  // in later versions: both are tried.
  const name = mediaUrl.replace(/^https?:\/\/[^/]+\/public\//, "");
  const candidates = [name];
  if (sourceCompanyId !== null && sourceCompanyId !== undefined) {
    candidates.push(`company${sourceCompanyId}/${name}`);
  }
  for (const candidate of candidates) {
    const path = insideFolder(dir, candidate);
    if (!path) continue;
    let data: Uint8Array;
    try {
      data = await Deno.readFile(path);
    } catch {
      continue;
    }
    const mimetype = typeFromContent(data);
    const base = candidate.split("/").at(-1)!.replace(/^\d{10,}-/, "");
    const stored = await saveMedia(config, companyId, data, { mimetype, filename: base });
    return { path: stored.path, mimetype: stored.mimetype, name: stored.filename };
  }
  return "missing";
}
