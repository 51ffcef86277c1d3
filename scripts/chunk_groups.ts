/**
 * Fewer, larger chunks for what every page loads (issue 33). esbuild's code splitting puts each
 * module in the chunk of the exact set of entry points that reach it, and a lazy part
 * (`import("./x.tsx")`) is an entry point too: React, React DOM, i18next and the shell were cut into
 * about 25 small files per page along the lines of which dialog happens to import what, and each
 * file is gzipped alone (measured: 5–7 KiB more per page than the same files as one).
 *
 * The build runs twice. The first build finds the groups: the modules every page loads first
 * (`all`), and those every page with the shell loads first (`shell`). The second build makes each
 * group reached by the same entry points, so esbuild keeps it in one chunk: every page entry and
 * every lazy part imports the group's anchor module (a list of bare imports) after its own code.
 * At run time the anchor adds nothing: a page has already evaluated each group module through its
 * own imports before the anchor's turn, and a lazy part loads only after its page. A lazy part
 * that does not reach the shell group does not import its anchor, so the sign-in pages' lazy parts
 * do not fetch the shell.
 */
import type * as esbuild from "esbuild";

export const ANCHOR_NAMESPACE = "chunk-anchor";
const LAZY_NAMESPACE = "lazy-entry";

export type ChunkGroups = {
  /** Modules (paths relative to the root) in every page's first load. */
  all: string[];
  /** Modules in every shell page's first load, and not in `all`. */
  shell: string[];
  /** Page islands that have the shell. */
  shellPages: Set<string>;
  /** Lazy parts (their source paths) that reach a module of `shell`. */
  lazyWithShell: Set<string>;
};

const SHELL_MODULE = "islands/lib/shell/AppShell.tsx";
const isCode = (input: string) => !input.includes(":") && /\.(tsx?|m?js|cjs)$/.test(input);

/** The groups, from the first build's metafile (`entry` names a page entry's island). */
export function chunkGroups(
  metafile: esbuild.Metafile,
  entry: (output: esbuild.Metafile["outputs"][string]) => string | undefined,
): ChunkGroups {
  const outputs = metafile.outputs;
  const reachedInputs = (start: string) => {
    const files = new Set<string>();
    const visit = (file: string) => {
      if (files.has(file)) return;
      files.add(file);
      for (const i of outputs[file]?.imports ?? []) {
        if (i.kind === "import-statement" && !i.external) visit(i.path);
      }
    };
    visit(start);
    const inputs: string[] = [];
    for (const file of files) inputs.push(...Object.keys(outputs[file].inputs).filter(isCode));
    return inputs;
  };
  const pages = new Map<string, string[]>();
  const lazy = new Map<string, string[]>();
  for (const [path, output] of Object.entries(outputs)) {
    if (!output.entryPoint || !path.endsWith(".js")) continue;
    const island = entry(output);
    if (island) pages.set(island, reachedInputs(path));
    else lazy.set(output.entryPoint, reachedInputs(path));
  }
  const intersect = (lists: string[][]) => {
    if (!lists.length) return [];
    const rest = lists.slice(1).map((l) => new Set(l));
    return lists[0].filter((m) => rest.every((s) => s.has(m)));
  };
  const all = intersect([...pages.values()]);
  const shellPages = new Set(
    [...pages].filter(([, m]) => m.includes(SHELL_MODULE)).map(([n]) => n),
  );
  const inAll = new Set(all);
  const shell = intersect([...pages].filter(([n]) => shellPages.has(n)).map(([, m]) => m))
    .filter((m) => !inAll.has(m));
  const inShell = new Set(shell);
  const lazyWithShell = new Set(
    [...lazy].filter(([, m]) => m.some((i) => inShell.has(i))).map(([p]) => p),
  );
  return { all, shell, shellPages, lazyWithShell };
}

/** The anchor imports a page entry ends with. */
export function pageAnchors(groups: ChunkGroups, island: string): string {
  return `import "${ANCHOR_NAMESPACE}:all";\n` +
    (groups.shellPages.has(island) ? `import "${ANCHOR_NAMESPACE}:shell";\n` : "");
}

/**
 * The anchors (`chunk-anchor:all`, `chunk-anchor:shell`), and every dynamic import of islands/
 * code wrapped in a module that re-exports the lazy part and then imports the anchors.
 */
export function groupsPlugin(root: string, groups: ChunkGroups): esbuild.Plugin {
  return {
    name: "chunk-groups",
    setup(build) {
      build.onResolve({ filter: new RegExp(`^${ANCHOR_NAMESPACE}:`) }, (args) => ({
        path: args.path.slice(ANCHOR_NAMESPACE.length + 1),
        namespace: ANCHOR_NAMESPACE,
      }));
      build.onLoad({ filter: /.*/, namespace: ANCHOR_NAMESPACE }, (args) => ({
        contents: (args.path === "shell" ? groups.shell : groups.all)
          .map((m) => `import ${JSON.stringify(`${root}${m}`)};`).join("\n"),
        loader: "js",
        resolveDir: root,
      }));
      build.onResolve({ filter: /.*/ }, async (args) => {
        if (args.kind !== "dynamic-import" || !args.importer.startsWith(`${root}islands/`)) {
          return undefined;
        }
        const target = await build.resolve(args.path, {
          kind: "import-statement",
          resolveDir: args.resolveDir,
          importer: args.importer,
        });
        if (target.errors.length || !target.path.startsWith(`${root}islands/`)) return undefined;
        return { path: target.path, namespace: LAZY_NAMESPACE };
      });
      build.onLoad({ filter: /.*/, namespace: LAZY_NAMESPACE }, async (args) => {
        const relative = args.path.slice(root.length);
        const source = await Deno.readTextFile(args.path);
        const target = JSON.stringify(args.path);
        return {
          contents: `export * from ${target};\n` +
            (/\bexport default\b/.test(source) ? `export { default } from ${target};\n` : "") +
            `import "${ANCHOR_NAMESPACE}:all";\n` +
            (groups.lazyWithShell.has(relative) ? `import "${ANCHOR_NAMESPACE}:shell";\n` : ""),
          loader: "js",
          resolveDir: root,
        };
      });
    },
  };
}
