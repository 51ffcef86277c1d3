/**
 * The JavaScript each page makes the browser download, gzipped (issue 4: "the gzipped JavaScript
 * that /tickets loads").
 *
 *   deno run -A tests/bench/page_weight_bench.ts
 *
 * Runs the production build (scripts/build_islands.ts), then per page island sums its entry and
 * every chunk it imports statically (what the page loads before it can run: the manifest's
 * `imports`, all preloaded), and separately the chunks it may fetch later through dynamic
 * imports (dialogs that load when first opened), plus its stylesheet. Sizes are those of the
 * precompressed .gz files the server sends.
 */
import { fileURLToPath } from "node:url";
import { buildIslands, pageJsBytes } from "../../scripts/build_islands.ts";
import type { IslandAssets } from "../../contract/manifest.ts";
import * as esbuild from "esbuild";

const STATIC = fileURLToPath(new URL("../../static", import.meta.url));

export type PageWeight = {
  island: string;
  /** Entry + static chunks, gzipped bytes. */
  initialJs: number;
  /** Chunks reachable only through dynamic import(), gzipped bytes. */
  onDemandJs: number;
  css: number;
  files: number;
};

async function gzSize(publicPath: string): Promise<number> {
  try {
    return (await Deno.stat(`${STATIC}${publicPath.slice("/static".length)}.gz`)).size;
  } catch {
    return 0;
  }
}

/** Chunks a set of modules may load later: `import("./x.js")` in their code, transitively. */
async function onDemandChunks(assets: IslandAssets): Promise<Set<string>> {
  const loaded = new Set([assets.js, ...assets.imports]);
  const found = new Set<string>();
  const queue = [...loaded];
  while (queue.length) {
    const file = queue.pop()!;
    const code = await Deno.readTextFile(`${STATIC}${file.slice("/static".length)}`);
    const dir = file.slice(0, file.lastIndexOf("/") + 1);
    for (const match of code.matchAll(/import\(\s*["'](\.{1,2}\/[^"']+\.js)["']\s*\)/g)) {
      const target = new URL(match[1], `http://x${dir}`).pathname;
      if (loaded.has(target) || found.has(target)) continue;
      found.add(target);
      queue.push(target);
    }
    // Static imports of an on-demand chunk come with it.
    if (!loaded.has(file)) {
      for (const match of code.matchAll(/from\s*["'](\.{1,2}\/[^"']+\.js)["']/g)) {
        const target = new URL(match[1], `http://x${dir}`).pathname;
        if (loaded.has(target) || found.has(target)) continue;
        found.add(target);
        queue.push(target);
      }
    }
  }
  return found;
}

/**
 * What a page's first load is made of: minified bytes per npm package (or per islands/ folder),
 * from esbuild's metafile, heaviest first. Where to look when a page grows.
 */
export function heaviestModules(
  metafile: esbuild.Metafile,
  island: string,
  count = 12,
): [string, number][] {
  const outputs = metafile.outputs;
  const entry = Object.keys(outputs).find((path) =>
    outputs[path].entryPoint?.endsWith(`:${island}`)
  );
  if (!entry) return [];
  const reached = new Set<string>();
  const visit = (file: string) => {
    if (reached.has(file)) return;
    reached.add(file);
    for (const i of outputs[file]?.imports ?? []) if (i.kind === "import-statement") visit(i.path);
  };
  visit(entry);
  const bytes = new Map<string, number>();
  for (const file of reached) {
    for (const [input, { bytesInOutput }] of Object.entries(outputs[file].inputs)) {
      const pkg = input.match(
        /node_modules\/(?:\.deno\/[^/]+\/node_modules\/)?((?:@[^/]+\/)?[^/]+)/,
      );
      const key = pkg ? pkg[1] : input.split("/").slice(0, 2).join("/");
      bytes.set(key, (bytes.get(key) ?? 0) + bytesInOutput);
    }
  }
  return [...bytes].sort((a, b) => b[1] - a[1]).slice(0, count);
}

let lastMetafile: esbuild.Metafile | undefined;

export async function measurePageWeights(): Promise<PageWeight[]> {
  const { manifest, gzSizes, metafile } = await buildIslands();
  lastMetafile = metafile;
  await esbuild.stop();
  const weights: PageWeight[] = [];
  for (const [island, assets] of Object.entries(manifest.islands)) {
    const later = await onDemandChunks(assets);
    let onDemandJs = 0;
    for (const file of later) onDemandJs += gzSizes.get(file) ?? await gzSize(file);
    let css = 0;
    for (const file of assets.css) css += gzSizes.get(file) ?? await gzSize(file);
    weights.push({
      island,
      initialJs: pageJsBytes(assets, gzSizes),
      onDemandJs,
      css,
      files: 1 + assets.imports.length,
    });
  }
  return weights.sort((a, b) => a.island.localeCompare(b.island));
}

const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`.padStart(10);

export async function benchPageWeight() {
  const weights = await measurePageWeights();
  const lines = weights.map((w) =>
    `  ${w.island.padEnd(18)} ${kib(w.initialJs)} ${String(w.files).padStart(5)} ${
      kib(w.onDemandJs)
    } ${kib(w.css)}`
  );
  // deno-lint-ignore no-console
  console.log(
    [
      "Page weight (gzipped; initial = entry + static chunks, loaded before the page runs)",
      `  ${"page".padEnd(18)} ${"initial JS".padStart(10)} ${"files".padStart(5)} ${
        "on demand".padStart(10)
      } ${"CSS".padStart(10)}`,
      ...lines,
    ].join("\n"),
  );
  const tickets = weights.find((w) => w.island === "TicketsPage");
  if (tickets) {
    // deno-lint-ignore no-console
    console.log(
      `/tickets loads ${kib(tickets.initialJs).trim()} of gzipped JavaScript ` +
        `(${kib(tickets.onDemandJs).trim()} more for its dialogs, on first use).`,
    );
  }
  if (lastMetafile) {
    const rows = heaviestModules(lastMetafile, "TicketsPage");
    // deno-lint-ignore no-console
    console.log(
      [
        "/tickets first load, heaviest parts (minified bytes before gzip):",
        ...rows.map(([name, bytes]) => `  ${String(bytes).padStart(8)}  ${name}`),
      ].join("\n"),
    );
  }
}

if (import.meta.main) await benchPageWeight();
