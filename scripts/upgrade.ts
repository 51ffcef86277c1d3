/**
 * `balcao upgrade <archive>` and `balcao rollback` (issue 32): releases live side by side in
 * <root>/releases/<version>/, `current` links the running one, data stays in DATA_DIR.
 *
 * An upgrade: checksum -> unpack beside the current release -> stop -> backup (by the running
 * release) -> switch `current` -> migrate (by the new release) -> start -> health (/healthz and the
 * new version on /api/version). A failure after the stop rolls back by itself: stop, `current`
 * back, the database restored from that backup (by the old release), start, health; the step that
 * failed is named. Each upgrade is recorded in <root>/upgrades.json (from, to, backup) so that
 * `rollback` can go back one; the last KEEP_RELEASES releases are kept.
 *
 * The service: BALCAO_SERVICE=systemd (`systemctl stop|start balcao`, the default when systemctl
 * exists) or `process` (the launcher started in the background, its pid in <root>/balcao.pid and
 * its output in <root>/balcao.log: machines without systemd, and the tests).
 */
import { exists } from "../server/ops/backup.ts";

type Say = (line: string) => void;
type Record = { from: string; to: string; backup: string; at: string };

const KEEP_RELEASES = 3;
const HEALTH_TIMEOUT_MS = Number(Deno.env.get("BALCAO_HEALTH_TIMEOUT_MS") ?? 90_000);

class StepError extends Error {}

/** <root>: from BALCAO_ROOT, or the folder holding releases/ that holds this release. */
function rootOf(): string {
  const fromEnv = Deno.env.get("BALCAO_ROOT");
  if (fromEnv) return fromEnv.replace(/\/+$/, "");
  const release = new URL("../../", import.meta.url).pathname.replace(/\/+$/, "");
  const releases = release.slice(0, release.lastIndexOf("/"));
  if (!releases.endsWith("/releases")) {
    throw new StepError(
      `not an installed release (${release} is not under releases/): set BALCAO_ROOT`,
    );
  }
  return releases.slice(0, -"/releases".length);
}

async function run(cmd: string, args: string[], what: string): Promise<string> {
  const out = await new Deno.Command(cmd, { args, stdout: "piped", stderr: "piped" }).output();
  return answerOf(out, what);
}

function answerOf(out: Deno.CommandOutput, what: string): string {
  const text = new TextDecoder().decode(out.stdout);
  if (!out.success) {
    const err = new TextDecoder().decode(out.stderr).trim().split("\n").slice(-3).join(" / ");
    throw new StepError(`${what}: ${err || `exit ${out.code}`}`);
  }
  return text;
}

async function sha256Hex(path: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", await Deno.readFile(path));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * A command of a release (backup, migrate, restore) as the service's user: run as root under
 * systemd, files it writes (backups, the restored database) must stay the service's.
 */
async function asService(launcher: string, args: string[], what: string): Promise<string> {
  if (Deno.uid() === 0 && await serviceMode() === "systemd") {
    return await run("runuser", ["-u", "balcao", "--", launcher, ...args], what);
  }
  return await run(launcher, args, what);
}

const serviceMode = async () =>
  Deno.env.get("BALCAO_SERVICE") ??
    (await run("sh", ["-c", "command -v systemctl"], "systemctl").then(() => "systemd", () =>
      "process"));

async function stopService(root: string) {
  if (await serviceMode() === "systemd") {
    return void await run("systemctl", ["stop", "balcao"], "stop");
  }
  const pidFile = `${root}/balcao.pid`;
  if (!await exists(pidFile)) return;
  const pid = Number((await Deno.readTextFile(pidFile)).trim());
  try {
    Deno.kill(pid, "SIGTERM");
  } catch {
    // already gone
  }
  const end = Date.now() + 30_000;
  while (Date.now() < end) {
    const alive = await new Deno.Command("kill", { args: ["-0", String(pid)], stderr: "null" })
      .output();
    if (!alive.success) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await Deno.remove(pidFile).catch(() => {});
}

async function startService(root: string) {
  if (await serviceMode() === "systemd") {
    return void await run("systemctl", ["start", "balcao"], "start");
  }
  const launcher = `${root}/current/bin/balcao`;
  const pid = await run("sh", [
    "-c",
    `nohup "$0" start >>"$1" 2>&1 & echo $!`,
    launcher,
    `${root}/balcao.log`,
  ], "start");
  await Deno.writeTextFile(`${root}/balcao.pid`, pid.trim());
}

/** Waits for /healthz and the expected version on /api/version. */
async function healthy(version: string) {
  const port = Deno.env.get("PORT") ?? "8080";
  const end = Date.now() + HEALTH_TIMEOUT_MS;
  let last = "no answer";
  while (Date.now() < end) {
    try {
      const health = await fetch(`http://127.0.0.1:${port}/healthz`, {
        signal: AbortSignal.timeout(2000),
      });
      await health.body?.cancel();
      const answer = await fetch(`http://127.0.0.1:${port}/api/version`, {
        signal: AbortSignal.timeout(2000),
      });
      const body = await answer.json() as { version?: string };
      if (health.ok && body.version === version) return;
      last = `healthz ${health.status}, version ${body.version}`;
    } catch (error) {
      last = String(error);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new StepError(`not healthy within ${HEALTH_TIMEOUT_MS / 1000} s (${last})`);
}

async function switchCurrent(root: string, version: string) {
  const next = `${root}/current.next`;
  await Deno.remove(next).catch(() => {});
  await Deno.symlink(`releases/${version}`, next);
  await Deno.rename(next, `${root}/current`); // atomic: `current` is never missing
}

async function currentVersion(root: string): Promise<string> {
  const target = await Deno.readLink(`${root}/current`).catch(() => undefined);
  if (!target) throw new StepError(`${root}/current does not exist: install first (install.sh)`);
  return target.split("/").filter(Boolean).at(-1)!;
}

async function records(root: string): Promise<Record[]> {
  const path = `${root}/upgrades.json`;
  return await exists(path) ? JSON.parse(await Deno.readTextFile(path)) : [];
}

async function prune(root: string, keep: string[]) {
  const all: { name: string; mtime: number }[] = [];
  for await (const entry of Deno.readDir(`${root}/releases`)) {
    if (!entry.isDirectory || entry.name.startsWith(".")) continue;
    const info = await Deno.stat(`${root}/releases/${entry.name}`);
    all.push({ name: entry.name, mtime: info.mtime?.getTime() ?? 0 });
  }
  all.sort((a, b) => b.mtime - a.mtime);
  const kept = new Set(keep);
  for (const r of all) if (kept.size < KEEP_RELEASES) kept.add(r.name);
  for (const r of all) {
    if (!kept.has(r.name)) await Deno.remove(`${root}/releases/${r.name}`, { recursive: true });
  }
}

/** Brings `from` back: stop, `current` to it, the database from `backup`, start, health. */
async function restoreRelease(root: string, from: string, backup: string | undefined, say: Say) {
  await stopService(root).catch(() => {});
  await switchCurrent(root, from);
  if (backup) {
    await asService(`${root}/releases/${from}/bin/balcao`, ["restore", backup], "restore");
  }
  await startService(root);
  await healthy(from);
  say(`running ${from} again${backup ? ` with the database of ${backup}` : ""}`);
}

export async function upgrade(archive: string, say: Say): Promise<number> {
  let step = "checksum";
  let root = "";
  let from = "";
  let to = "";
  let backup: string | undefined;
  let stopped = false;
  let stoppedAt = 0;
  try {
    root = rootOf();
    from = await currentVersion(root);
    const sums = `${archive}.sha256`;
    if (!await exists(sums)) throw new StepError(`${sums} is missing`);
    const expected = (await Deno.readTextFile(sums)).trim().split(/\s+/)[0];
    if (expected !== await sha256Hex(archive)) {
      throw new StepError(`${archive} does not match ${sums}`);
    }

    step = "unpack";
    const staging = `${root}/releases/.unpack-${crypto.randomUUID()}`;
    await Deno.mkdir(staging, { recursive: true });
    await run("tar", ["-xzf", archive, "-C", staging], "tar");
    const [top] = [...Deno.readDirSync(staging)].map((e) => e.name);
    to = (await Deno.readTextFile(`${staging}/${top}/VERSION`)).trim();
    if (to === from) {
      await Deno.remove(staging, { recursive: true });
      throw new StepError(`${to} is the running release`);
    }
    await Deno.remove(`${root}/releases/${to}`, { recursive: true }).catch(() => {});
    await Deno.rename(`${staging}/${top}`, `${root}/releases/${to}`);
    if (Deno.uid() === 0 && await serviceMode() === "systemd") {
      await run("chown", ["-R", "balcao:balcao", `${root}/releases/${to}`], "chown");
    }
    await Deno.remove(staging, { recursive: true });
    say(`unpacked ${to} beside ${from}`);

    step = "stop";
    stoppedAt = Date.now();
    await stopService(root);
    stopped = true;

    step = "backup";
    const taken = JSON.parse(
      await asService(`${root}/releases/${from}/bin/balcao`, ["backup"], "backup"),
    );
    const backupDir = Deno.env.get("BACKUP_DIR") ??
      `${(Deno.env.get("DATA_DIR") ?? "./data").replace(/\/+$/, "")}/backups`;
    backup = `${backupDir}/${taken.name}`;
    say(`backup ${backup}`);

    step = "switch";
    await switchCurrent(root, to);

    step = "migrate";
    say(
      `migrated: ${(await asService(`${root}/current/bin/balcao`, ["migrate"], "migrate")).trim()}`,
    );

    step = "start";
    await startService(root);

    step = "health";
    await healthy(to);
    const list = await records(root);
    list.push({ from, to, backup, at: new Date().toISOString() });
    await Deno.writeTextFile(`${root}/upgrades.json`, JSON.stringify(list, null, 2));
    await prune(root, [to, from]);
    say(`upgraded ${from} -> ${to}; downtime ${((Date.now() - stoppedAt) / 1000).toFixed(1)} s`);
    return 0;
  } catch (error) {
    if (!(error instanceof StepError || error instanceof Error)) throw error;
    say(`upgrade${to ? ` to ${to}` : ""} failed at step '${step}': ${error.message}`);
    if (!stopped) return 1;
    try {
      // Before the switch the data was not touched: no restore needed.
      const touched = step !== "stop" && step !== "backup";
      await restoreRelease(root, from, touched ? backup : undefined, say);
      say(`rolled back to ${from}`);
    } catch (again) {
      say(`ROLLBACK FAILED: ${again instanceof Error ? again.message : again}`);
    }
    return 1;
  }
}

export async function rollback(say: Say): Promise<number> {
  const root = rootOf();
  const current = await currentVersion(root);
  const list = await records(root);
  const last = list.findLast((r) => r.to === current);
  if (!last) {
    say(`rollback refused: no upgrade to ${current} is recorded in ${root}/upgrades.json`);
    return 1;
  }
  if (!await exists(`${root}/releases/${last.from}`)) {
    say(`rollback refused: ${last.from} is no longer in ${root}/releases`);
    return 1;
  }
  await restoreRelease(root, last.from, last.backup, say);
  await Deno.writeTextFile(
    `${root}/upgrades.json`,
    JSON.stringify(list.filter((r) => r !== last), null, 2),
  );
  say(`rolled back ${current} -> ${last.from}`);
  return 0;
}
