/**
 * Builds the browser bundles: every `islands/*.tsx` is an entry (a page island), bundled with
 * esbuild into `static/build/` as hashed, minified ES modules with code splitting, so that React
 * and the shared client code ship once as chunks that every page reuses.
 *
 * Writes `static/build/manifest.json` (see contract/manifest.ts), which the server reads to emit
 * the `<script type="module">`, `<link rel="modulepreload">` and `<link rel="stylesheet">` tags.
 *
 * A production build writes into a folder of its own, `static/build/<id>/`, and switches to it by
 * renaming the manifest over the old one (atomic): a server already running from this checkout
 * (a second `deno task start` beside it, N processes on one machine) keeps serving complete
 * bundles throughout, the old ones until the switch and the new ones after (issue 44). Older
 * builds stay a while for pages already open, then the next build removes them.
 *
 *   deno run -A scripts/build_islands.ts           production build (also writes .gz copies)
 *   deno run -A scripts/build_islands.ts --watch   development: rebuilds on change
 */
import * as esbuild from "esbuild";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import type { IslandAssets, Manifest } from "../contract/manifest.ts";
import { iconNames, spriteFileName, spriteSvg } from "./icon_sprite.ts";
import { type ChunkGroups, chunkGroups, groupsPlugin, pageAnchors } from "./chunk_groups.ts";

const ROOT = fileURLToPath(new URL("../", import.meta.url));
const ISLANDS_DIR = `${ROOT}islands`;
const OUT_DIR = `${ROOT}static/build`;
/** Builds kept beside the current one, for pages loaded before a switch. */
const KEEP_BUILDS = 3;
/** A build folder's name: when it began (sortable) and a random part (two builds at once). */
const BUILD_FOLDER = /^b\d{13}-[0-9a-f]{8}$/;
/** A folder no build finished (a build killed midway) is removed once older than this. */
const STALE_MS = 60 * 60 * 1000;
const ENTRY_NAMESPACE = "island-entry";

/** The page islands: top-level `islands/*.tsx` files (islands/lib/ holds shared code, not entries). */
export async function islandNames(): Promise<string[]> {
  const names: string[] = [];
  for await (const entry of Deno.readDir(ISLANDS_DIR)) {
    if (entry.isFile && entry.name.endsWith(".tsx") && !entry.name.endsWith("_test.tsx")) {
      names.push(entry.name.slice(0, -".tsx".length));
    }
  }
  return names.sort();
}

/**
 * @preact/signals-react's runtime imports `use-sync-external-store/shim`, a copy of the hook for
 * React 16 and 17; React 18 and later have it built in, so the bundle takes React's own
 * (0.4 KiB gzipped off every page).
 */
const syncExternalStorePlugin: esbuild.Plugin = {
  name: "use-sync-external-store",
  setup(build) {
    build.onResolve({ filter: /^use-sync-external-store\/shim(\/index\.js)?$/ }, () => ({
      path: `${ROOT}islands/lib/sync_external_store.ts`,
    }));
  },
};

/**
 * Each entry is a tiny generated module that hydrates the island's default export, so an island
 * file is just a component: no boilerplate, and the server can import the same file for SSR.
 */
const entryPlugin = (groups?: ChunkGroups): esbuild.Plugin => ({
  name: "island-entries",
  setup(build) {
    build.onResolve({ filter: new RegExp(`^${ENTRY_NAMESPACE}:`) }, (args) => ({
      path: args.path.slice(ENTRY_NAMESPACE.length + 1),
      namespace: ENTRY_NAMESPACE,
    }));
    build.onLoad({ filter: /.*/, namespace: ENTRY_NAMESPACE }, (args) => ({
      // hydrate.tsx first: its base stylesheet must come before the island's own CSS.
      contents: `import { hydrateIsland } from "./lib/hydrate.tsx";\n` +
        `import Island from "./${args.path}.tsx";\n` +
        `hydrateIsland(Island);\n` +
        (groups ? pageAnchors(groups, args.path) : ""),
      loader: "tsx",
      resolveDir: ISLANDS_DIR,
    }));
  },
});

/**
 * Co-located styles: a component's stylesheet is the `.css` file with the same name next to it
 * (AppShell.tsx + AppShell.css). The build adds the import, so the modules stay plain TypeScript
 * that the server can import for SSR (Deno does not import CSS).
 */
const cssPlugin: esbuild.Plugin = {
  name: "co-located-css",
  setup(build) {
    build.onLoad({ filter: /\.tsx?$/ }, async (args) => {
      if (!args.path.startsWith(`${ISLANDS_DIR}/`) || args.path.includes("/node_modules/")) {
        return undefined;
      }
      const css = args.path.replace(/\.tsx?$/, ".css");
      let contents = await Deno.readTextFile(args.path);
      try {
        await Deno.stat(css);
        const base = css.slice(css.lastIndexOf("/") + 1);
        contents += `\nimport "./${base}";\n`;
      } catch {
        // no stylesheet for this module
      }
      return { contents, loader: args.path.endsWith(".tsx") ? "tsx" : "ts" };
    });
  },
};

function options(
  names: string[],
  dev: boolean,
  outdir: string,
  groups?: ChunkGroups,
): esbuild.BuildOptions {
  return {
    absWorkingDir: ROOT,
    entryPoints: names.map((name) => ({ in: `${ENTRY_NAMESPACE}:${name}`, out: name })),
    outdir,
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "browser",
    target: ["es2022", "chrome110", "firefox110", "safari16"],
    jsx: "automatic",
    jsxImportSource: "react",
    minify: !dev,
    sourcemap: dev ? "linked" : false,
    metafile: true,
    write: true,
    entryNames: "[name]-[hash]",
    chunkNames: "chunks/[name]-[hash]",
    assetNames: "assets/[name]-[hash]",
    loader: {
      ".svg": "file",
      ".png": "file",
      ".woff2": "file",
      ".mp3": "file",
    },
    define: { "process.env.NODE_ENV": dev ? '"development"' : '"production"' },
    legalComments: "none",
    logLevel: "warning",
    // The chunk anchors (chunk_groups.ts) also name modules of packages marked side-effect free:
    // esbuild then skips that bare import, which is harmless (the module is in the group anyway).
    logOverride: { "ignored-bare-import": "silent" },
    plugins: [
      entryPlugin(groups),
      ...(groups ? [groupsPlugin(ROOT, groups)] : []),
      cssPlugin,
      syncExternalStorePlugin,
    ],
  };
}

/** The URL of a build's file, from its path under the checkout (`static/build/...`). */
function publicPath(outputPath: string): string {
  return `/${outputPath}`;
}

/** Manifest from esbuild's metafile: per island its entry file, the chunks it imports, its CSS. */
export function manifestFrom(metafile: esbuild.Metafile): Manifest {
  const outputs = metafile.outputs;
  const islands: Record<string, IslandAssets> = {};
  for (const [path, output] of Object.entries(outputs)) {
    if (!output.entryPoint?.startsWith(`${ENTRY_NAMESPACE}:`)) continue;
    const name = output.entryPoint.slice(ENTRY_NAMESPACE.length + 1);
    // Every chunk reachable through static imports: preloaded in parallel instead of a waterfall.
    const chunks = new Set<string>();
    const visit = (file: string) => {
      for (const imported of outputs[file]?.imports ?? []) {
        if (imported.kind !== "import-statement" || imported.external) continue;
        if (chunks.has(imported.path)) continue;
        chunks.add(imported.path);
        visit(imported.path);
      }
    };
    visit(path);
    islands[name] = {
      js: publicPath(path),
      imports: [...chunks].filter((f) => f.endsWith(".js")).map(publicPath).sort(),
      css: output.cssBundle ? [publicPath(output.cssBundle)] : [],
    };
  }
  return { version: 1, islands };
}

async function writeManifest(manifest: Manifest) {
  // Written then renamed so that a server reading it never sees half a file.
  const tmp = `${OUT_DIR}/manifest.json.tmp`;
  await Deno.writeTextFile(tmp, JSON.stringify(manifest, null, 2) + "\n");
  await Deno.rename(tmp, `${OUT_DIR}/manifest.json`);
}

/**
 * gzip at its best level (9, the largest window state): 1.5 % smaller than CompressionStream's
 * default level for a few milliseconds more per build, and the same format for the browser.
 */
function gzip(bytes: Uint8Array): Uint8Array {
  return gzipSync(bytes, { level: 9, memLevel: 9 });
}

/** Writes the icon sprite (scripts/icon_sprite.ts) into the build folder; its output path. */
async function writeSprite(folder: string): Promise<string> {
  const svg = await spriteSvg(await iconNames());
  const file = `${folder}/${await spriteFileName(svg)}`;
  await Deno.writeTextFile(`${ROOT}${file}`, svg);
  return file;
}

/** Gzipped copies next to each JS/CSS/SVG file: the server sends them as they are, no CPU per request. */
async function precompress(files: string[]): Promise<Map<string, number>> {
  const sizes = new Map<string, number>();
  await Promise.all(files.map(async (file) => {
    if (!/\.(js|css|svg)$/.test(file)) return;
    const zipped = gzip(await Deno.readFile(`${ROOT}${file}`));
    await Deno.writeFile(`${ROOT}${file}.gz`, zipped);
    sizes.set(publicPath(file), zipped.length);
  }));
  return sizes;
}

/** Gzipped JavaScript a page loads: its entry plus every chunk it imports statically. */
export function pageJsBytes(assets: IslandAssets, gzSizes: Map<string, number>): number {
  return [assets.js, ...assets.imports].reduce((sum, file) => sum + (gzSizes.get(file) ?? 0), 0);
}

/** One production build: its own folder, bundle, precompress, then the manifest's switch. */
export async function buildIslands(): Promise<
  { manifest: Manifest; gzSizes: Map<string, number>; metafile: esbuild.Metafile }
> {
  const id = `b${Date.now()}-${crypto.randomUUID().slice(0, 8)}`;
  const folder = `static/build/${id}`;
  const outdir = `${ROOT}${folder}`;
  await Deno.mkdir(outdir, { recursive: true });
  const names = await islandNames();
  // First pass (nothing written): which modules every page, and every shell page, loads first.
  const first = await esbuild.build({ ...options(names, false, outdir), write: false });
  const groups = chunkGroups(
    first.metafile!,
    (output) =>
      output.entryPoint?.startsWith(`${ENTRY_NAMESPACE}:`)
        ? output.entryPoint.slice(ENTRY_NAMESPACE.length + 1)
        : undefined,
  );
  const result = await esbuild.build(options(names, false, outdir, groups));
  const sprite = await writeSprite(folder);
  const manifest = { ...manifestFrom(result.metafile!), icons: publicPath(sprite) };
  const gzSizes = await precompress([...Object.keys(result.metafile!.outputs), sprite]);
  await writeManifest(manifest);
  await removeOldBuilds(id);
  return { manifest, gzSizes, metafile: result.metafile! };
}

/**
 * Removes what no page needs any more: finished builds older than the KEEP_BUILDS newest (never
 * the current one), folders of builds that never finished once stale, and the files of the
 * layout before build folders (bundles straight under static/build/) once stale.
 */
async function removeOldBuilds(current: string) {
  const builds: string[] = [];
  const now = Date.now();
  for await (const entry of Deno.readDir(OUT_DIR)) {
    if (entry.name === "manifest.json" || entry.name === "dev" || entry.name === current) continue;
    const path = `${OUT_DIR}/${entry.name}`;
    if (BUILD_FOLDER.test(entry.name) && await exists(`${path}/.done`)) {
      builds.push(entry.name);
      continue;
    }
    // Another build may be writing this folder now: only a stale one is left behind.
    const mtime = (await Deno.stat(path).catch(() => null))?.mtime?.getTime() ?? now;
    if (now - mtime > STALE_MS) await Deno.remove(path, { recursive: true }).catch(() => {});
  }
  await Deno.writeTextFile(`${OUT_DIR}/${current}/.done`, "");
  builds.sort().reverse();
  for (const old of builds.slice(KEEP_BUILDS)) {
    await Deno.remove(`${OUT_DIR}/${old}`, { recursive: true }).catch(() => {});
  }
}

async function exists(path: string): Promise<boolean> {
  return await Deno.stat(path).then(() => true, () => false);
}

/** Development: rebuild on every change; a new or removed island file restarts the build. */
async function watch() {
  const folder = "static/build/dev";
  await Deno.mkdir(`${ROOT}${folder}`, { recursive: true });
  let names = await islandNames();
  let previous = new Set<string>();
  const cleanupPlugin: esbuild.Plugin = {
    name: "manifest-on-end",
    setup(build) {
      build.onEnd(async (result) => {
        if (result.errors.length || !result.metafile) return;
        const outputs = new Set(Object.keys(result.metafile.outputs));
        // Hashed names change on every edit: drop the files of the previous build.
        for (const old of previous) {
          if (!outputs.has(old)) await Deno.remove(`${ROOT}${old}`).catch(() => {});
        }
        const sprite = await writeSprite(folder);
        outputs.add(sprite);
        previous = outputs;
        await writeManifest({ ...manifestFrom(result.metafile), icons: publicPath(sprite) });
        // deno-lint-ignore no-console
        console.log(`islands rebuilt (${names.length} entries) ${new Date().toLocaleTimeString()}`);
      });
    },
  };
  const start = () => {
    const opts = options(names, true, `${ROOT}${folder}`);
    return esbuild.context({ ...opts, plugins: [...opts.plugins!, cleanupPlugin] });
  };
  let ctx = await start();
  await ctx.watch();
  for await (const _event of Deno.watchFs(ISLANDS_DIR, { recursive: false })) {
    const now = await islandNames();
    if (now.join() === names.join()) continue;
    names = now;
    await ctx.dispose();
    ctx = await start();
    await ctx.watch();
  }
}

if (import.meta.main) {
  if (Deno.args.includes("--watch")) {
    await watch();
  } else {
    const started = performance.now();
    const { manifest, gzSizes } = await buildIslands();
    const lines = Object.entries(manifest.islands).map(([name, assets]) =>
      `  ${name.padEnd(24)} ${(pageJsBytes(assets, gzSizes) / 1024).toFixed(1)} KiB gzipped JS`
    );
    // deno-lint-ignore no-console
    console.log(
      `islands built in ${Math.round(performance.now() - started)} ms\n${lines.join("\n")}`,
    );
    await esbuild.stop();
  }
}
