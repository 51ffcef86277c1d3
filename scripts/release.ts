/**
 * `deno task release` (issue 32): dist/balcao-<version>-linux-x64.tar.gz and its .sha256, one
 * archive that installs and runs on a VPS that reaches no registry:
 *
 *   balcao-<version>/
 *     bin/balcao        the launcher (deploy/release/balcao): start, migrate, backup, restore,
 *                       version, doctor, upgrade, rollback, import whaticket,
 *                       migrate-db
 *     runtime/deno      the pinned Deno (npm's @deno/linux-x64-glibc, the binary `npx deno` runs)
 *     app/              the app, its built browser bundles, node_modules and Deno's cache
 *                       (vendored from deno.lock: the app's packages only, no test package)
 *     install.sh        the VPS install (deploy/release/install.sh)
 *     VERSION
 *
 * Built from the files git tracks (tests aside), so a dirty tree's stray files never ship.
 * `stageRelease` and `packRelease` are apart so that the tests can build once and pack variants.
 */
import { fileURLToPath } from "node:url";
import denoConfig from "../deno.json" with { type: "json" };

/** The runtime the archive carries: the version the README's commands pin. */
export const PINNED_DENO = "2.9.6";

const ROOT = fileURLToPath(new URL("../", import.meta.url));
const APP_PATHS = [
  "main.ts",
  "deno.json",
  "deno.lock",
  "server",
  "routes",
  "islands",
  "contract",
  "db",
  "jobs",
  "locales",
  "static",
  "scripts",
  "deploy",
  "README.md",
];
/** Every module a process loads besides main.ts' graph: workers and the operator's commands. */
const ENTRYPOINTS = [
  "main.ts",
  "db/worker.ts",
  "db/backup_worker.ts",
  "server/contacts/sheet_worker.ts",
  "server/push/encrypt_worker.ts",
  "scripts/cli.ts",
  "scripts/import_whaticket.ts",
  "scripts/migrate_db.ts",
  // Imported by a computed URL (db/client.ts) for DATABASE_URL=postgres://: cached all the same.
  "db/postgres.ts",
  // The same for backups and restores on PostgreSQL (server/ops/backup.ts, scripts/doctor.ts).
  "db/postgres_backup.ts",
  "scripts/build_islands.ts",
];

// deno-lint-ignore no-console
const say = (line: string) => console.log(line);

async function run(
  cmd: string,
  args: string[],
  options: { cwd?: string; env?: Record<string, string> } = {},
) {
  const out = await new Deno.Command(cmd, { args, stdout: "piped", stderr: "piped", ...options })
    .output();
  if (!out.success) {
    throw new Error(
      `${cmd} ${args.join(" ")}: ${new TextDecoder().decode(out.stderr).slice(-2000)}`,
    );
  }
  return new TextDecoder().decode(out.stdout);
}

async function trackedFiles(): Promise<string[]> {
  const listed = await run("git", ["ls-files", "-z", "--", ...APP_PATHS], { cwd: ROOT });
  return listed.split("\0").filter((f) => f && !/_test\.tsx?$/.test(f));
}

/** Writes the release's folder under `outDir`; its path. */
export async function stageRelease(outDir: string, version = denoConfig.version): Promise<string> {
  if (Deno.version.deno !== PINNED_DENO) {
    throw new Error(
      `build with Deno ${PINNED_DENO} (npx -y deno@${PINNED_DENO} task release): this is ${Deno.version.deno}`,
    );
  }
  const top = `${outDir}/balcao-${version}`;
  await Deno.remove(top, { recursive: true }).catch(() => {});
  const app = `${top}/app`;
  for (const file of await trackedFiles()) {
    const target = `${app}/${file}`;
    await Deno.mkdir(target.slice(0, target.lastIndexOf("/")), { recursive: true });
    await Deno.copyFile(`${ROOT}${file}`, target);
  }
  const env = { ...Deno.env.toObject(), DENO_DIR: `${app}/.deno_dir`, DENO_NO_UPDATE_CHECK: "1" };
  // The app's packages exactly as locked, into app/node_modules and app/.deno_dir.
  await run(Deno.execPath(), ["install", "--frozen", "--entrypoint", ...ENTRYPOINTS], {
    cwd: app,
    env,
  });
  await run(Deno.execPath(), ["run", "--cached-only", "-A", "scripts/build_islands.ts"], {
    cwd: app,
    env,
  });
  // Deno checks node_modules against the whole lockfile at start and would try to download a
  // package that is missing: packages stay; only the files of builds that can never load go.
  await pruneOtherLibc(app);
  await Deno.mkdir(`${top}/runtime`, { recursive: true });
  await Deno.copyFile(Deno.execPath(), `${top}/runtime/deno`);
  await Deno.chmod(`${top}/runtime/deno`, 0o755);
  await Deno.mkdir(`${top}/bin`, { recursive: true });
  await Deno.copyFile(`${ROOT}deploy/release/balcao`, `${top}/bin/balcao`);
  await Deno.chmod(`${top}/bin/balcao`, 0o755);
  await Deno.copyFile(`${ROOT}deploy/release/install.sh`, `${top}/install.sh`);
  await Deno.chmod(`${top}/install.sh`, 0o755);
  await Deno.writeTextFile(`${top}/VERSION`, `${version}\n`);
  return top;
}

/**
 * The native builds for musl (Alpine's libc) that come beside the glibc ones (libSQL's, sharp's
 * and its libvips', ~29 MiB): the archive's Deno is glibc's build, so its processes load only the
 * glibc ones (detect-libc picks them at run time). Their files go, from `node_modules` and from
 * the cache (`.deno_dir/npm`) they are hard-linked from; each package's folder and package.json
 * stay, so Deno still finds every locked package and never tries the registry. Names the folders.
 */
export async function pruneOtherLibc(app: string): Promise<string[]> {
  const pruned: string[] = [];
  for await (const entry of Deno.readDir(`${app}/node_modules/.deno`)) {
    if (!entry.isDirectory || !/musl/.test(entry.name)) continue;
    // "@img+sharp-linuxmusl-x64@0.35.5" is @img/sharp-linuxmusl-x64, version 0.35.5.
    const at = entry.name.lastIndexOf("@");
    const name = entry.name.slice(0, at).replace("+", "/");
    const version = entry.name.slice(at + 1).split("_")[0]; // "_…": a peer-dependency variant
    for (
      const dir of [
        `${app}/node_modules/.deno/${entry.name}/node_modules/${name}`,
        `${app}/.deno_dir/npm/registry.npmjs.org/${name}/${version}`,
      ]
    ) {
      await removeAllBut(dir, "package.json");
    }
    pruned.push(entry.name);
  }
  return pruned.sort();
}

async function removeAllBut(dir: string, keep: string) {
  const entries = await Array.fromAsync(Deno.readDir(dir)).catch((error) => {
    if (error instanceof Deno.errors.NotFound) return [];
    throw error;
  });
  for (const entry of entries) {
    if (entry.name === keep) continue;
    await Deno.remove(`${dir}/${entry.name}`, { recursive: true });
  }
}

/**
 * What takes the room in a staged release, in bytes, each file counted once: the npm packages'
 * files are hard links shared by `app/node_modules` and Deno's cache `app/.deno_dir/npm`, so
 * `du` of either folder alone counts the same bytes (README 'From a release archive').
 */
export async function releaseSizes(top: string): Promise<{
  total: number;
  parts: { path: string; size: number }[];
}> {
  const packages = [];
  for await (const entry of Deno.readDir(`${top}/app/node_modules/.deno`)) {
    if (entry.isDirectory) packages.push(`app/node_modules/.deno/${entry.name}`);
  }
  // One `du` over every part: a file linked from two parts counts in the first one listed.
  const paths = [
    "runtime",
    ...packages,
    "app/.deno_dir/npm",
    "app/.deno_dir/gen",
    "app/.deno_dir",
    "app/static/build",
  ];
  const out = await run("du", ["-sb", "--", ...paths], { cwd: top });
  const parts = out.trim().split("\n").map((line) => {
    const [size, path] = line.split("\t");
    return { path, size: Number(size) };
  });
  const total = Number((await run("du", ["-sb", "."], { cwd: top })).split(/\s+/)[0]);
  return { total, parts };
}

/** Packs a staged folder into <outDir>/balcao-<version>-linux-x64.tar.gz + .sha256. */
export async function packRelease(top: string, outDir: string, gzipLevel = 6): Promise<string> {
  const version = (await Deno.readTextFile(`${top}/VERSION`)).trim();
  const name = `balcao-${version}-linux-x64.tar.gz`;
  const archive = `${outDir}/${name}`;
  const parent = top.slice(0, top.lastIndexOf("/"));
  const folder = top.slice(top.lastIndexOf("/") + 1);
  await run("sh", [
    "-c",
    `tar -C "$1" -cf - "$2" | gzip -${gzipLevel} > "$3"`,
    "tar",
    parent,
    folder,
    archive,
  ]);
  const digest = await crypto.subtle.digest("SHA-256", await Deno.readFile(archive));
  const hex = [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
  await Deno.writeTextFile(`${archive}.sha256`, `${hex}  ${name}\n`);
  return archive;
}

if (import.meta.main) {
  const dist = `${ROOT}dist`;
  await Deno.mkdir(dist, { recursive: true });
  const started = Date.now();
  const top = await stageRelease(dist);
  const archive = await packRelease(top, dist);
  const MiB = 1024 * 1024;
  const mib = (bytes: number) => `${(bytes / MiB).toFixed(1).padStart(6)} MiB`;
  say(`${archive} (${((await Deno.stat(archive)).size / MiB).toFixed(1)} MiB), sha256 beside it`);
  const { total, parts } = await releaseSizes(top);
  say(`built in ${((Date.now() - started) / 1000).toFixed(0)} s; unpacked ${mib(total).trim()}:`);
  const packages = parts.filter((p) => p.path.startsWith("app/node_modules/"));
  const packed = packages.reduce((sum, p) => sum + p.size, 0);
  say(`  ${mib(packed)}  app/node_modules (${packages.length} packages; the largest below)`);
  for (const { path, size } of packages.sort((a, b) => b.size - a.size).slice(0, 8)) {
    say(`  ${mib(size)}    ${path.slice("app/node_modules/.deno/".length)}`);
  }
  for (const { path, size } of parts.filter((p) => !p.path.startsWith("app/node_modules/"))) {
    const note = path === "app/.deno_dir/npm"
      ? " (besides the hard links it shares with node_modules)"
      : path === "app/.deno_dir"
      ? " (the rest: its code caches)"
      : "";
    say(`  ${mib(size)}  ${path}${note}`);
  }
  await Deno.remove(top, { recursive: true });
}
