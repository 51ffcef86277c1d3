/**
 * The icon sprite (issue 33): every lucide icon the islands name with `icon("name")`
 * (islands/lib/ui/icon.tsx), as `<symbol id="name">` in one SVG file that the build writes next to
 * the bundles with a hashed name. The paths come from lucide-react's own icon data, so the icons
 * look as they did when each was a lucide-react component; the pages' JavaScript keeps only names.
 */
import { fileURLToPath } from "node:url";

const ISLANDS_DIR = fileURLToPath(new URL("../islands/", import.meta.url));

/** `icon("name")` with a literal name: the only way the islands name an icon. */
export const ICON_CALL = /\bicon\("([a-z0-9-]+)"\)/g;

/** Every icon named in islands/ (sorted, each once). */
export async function iconNames(dir = ISLANDS_DIR): Promise<string[]> {
  const names = new Set<string>();
  const walk = async (path: string) => {
    for await (const entry of Deno.readDir(path)) {
      const child = `${path}/${entry.name}`;
      if (entry.isDirectory) await walk(child);
      else if (/\.tsx?$/.test(entry.name) && !entry.name.endsWith("_test.tsx")) {
        for (const match of (await Deno.readTextFile(child)).matchAll(ICON_CALL)) {
          names.add(match[1]);
        }
      }
    }
  };
  await walk(dir.replace(/\/$/, ""));
  return [...names].sort();
}

type IconNode = [string, Record<string, string | number>][];

const escapeAttr = (value: string | number) =>
  String(value).replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;");

/** One `<symbol>` from lucide-react's data for the icon (an unknown name fails the build). */
async function symbol(name: string): Promise<string> {
  let data: { size?: number; node: IconNode } | undefined;
  try {
    const module = await import(`lucide-react/icons/${name}`);
    data = module.__iconData ?? module.default?.__iconData;
    if (!data) {
      // An alias module re-exports only the component: lucide keeps the data on its render props.
      const element = module.default?.render?.({}, null);
      data = element?.props?.icon;
    }
  } catch (error) {
    throw new Error(`icon("${name}"): no such lucide icon (${(error as Error).message})`);
  }
  if (!data) throw new Error(`icon("${name}"): lucide-react gave no icon data`);
  const size = data.size ?? 24;
  const children = data.node.map(([tag, attrs]) =>
    `<${tag}${
      Object.entries(attrs).filter(([key]) => key !== "key").map(([key, value]) =>
        ` ${key}="${escapeAttr(value)}"`
      ).join("")
    }/>`
  ).join("");
  return `<symbol id="${name}" viewBox="0 0 ${size} ${size}">${children}</symbol>`;
}

/** The sprite's text for these icons. */
export async function spriteSvg(names: string[]): Promise<string> {
  const symbols = await Promise.all(names.map(symbol));
  return `<svg xmlns="http://www.w3.org/2000/svg">${symbols.join("")}</svg>\n`;
}

/** The sprite's file name: its content's hash, so browsers may cache it for good. */
export async function spriteFileName(svg: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(svg));
  const hex = [...new Uint8Array(digest).slice(0, 5)].map((b) => b.toString(16).padStart(2, "0"))
    .join("").toUpperCase();
  return `icons-${hex}.svg`;
}
