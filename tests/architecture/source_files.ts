import { fileURLToPath } from "node:url";

/** The repository's root, as the architecture tests read files from it. */
export const ROOT = fileURLToPath(new URL("../../", import.meta.url));

async function* sources(dir: string): AsyncGenerator<string> {
  for await (const entry of Deno.readDir(`${ROOT}${dir}`)) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory) yield* sources(path);
    else if (/\.tsx?$/.test(entry.name) && !/_test\.tsx?$/.test(entry.name)) yield path;
  }
}

/** The source files (tests aside) under `dirs`, or the .ts files named, from the root, sorted. */
export async function filesOf(...dirs: string[]): Promise<string[]> {
  const out: string[] = [];
  for (const dir of dirs) {
    if (dir.endsWith(".ts")) out.push(dir);
    else for await (const file of sources(dir)) out.push(file);
  }
  return out.sort();
}
