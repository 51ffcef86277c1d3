import assert from "node:assert/strict";
import { type MainProcess, startMain } from "../helpers/main_process.ts";

/**
 * Issue 44 item 5: `deno task start` builds the page bundles, then starts the server. A second
 * start from the same checkout (N processes on one machine, a restart beside a running one) used
 * to empty static/build while the first served from it: its pages answered 500 and their scripts
 * 404. Each build now writes a folder of its own and switches the manifest atomically
 * (scripts/build_islands.ts).
 */

/** `deno task start` in this checkout, in a process group of its own (the task starts a child). */
function startTask(dir: string, name: string): Promise<MainProcess> {
  return startMain(
    { DATA_DIR: dir, ADMIN_EMAIL: "root@twice.test", ADMIN_PASSWORD: "root-password" },
    name,
    [],
    { program: "setsid", args: [Deno.execPath(), "task", "start"] },
  );
}

async function stop(server: MainProcess | undefined) {
  if (!server) return;
  // The whole group: the task and the server it started.
  try {
    Deno.kill(-server.child.pid, "SIGTERM");
  } catch {
    // already gone
  }
  await server.child.status;
}

/** Loads the login page and every bundle it names; what did not answer 200. */
async function pageAndScripts(url: string): Promise<string[]> {
  const failed: string[] = [];
  const page = await fetch(`${url}/login`);
  const html = await page.text();
  if (page.status !== 200) return [`/login ${page.status}`];
  const assets = [...html.matchAll(/(?:src|href)="(\/static\/build\/[^"]+)"/g)].map((m) => m[1]);
  if (assets.length === 0) failed.push("/login names no bundle");
  for (const asset of new Set(assets)) {
    const res = await fetch(`${url}${asset}`);
    await res.body?.cancel();
    if (res.status !== 200) failed.push(`${asset} ${res.status}`);
  }
  return failed;
}

Deno.test("start twice - a second `deno task start` from the same checkout leaves the first serving its pages and scripts throughout", async () => {
  const dirs = [await Deno.makeTempDir(), await Deno.makeTempDir()];
  let first: MainProcess | undefined;
  let second: MainProcess | undefined;
  try {
    first = await startTask(dirs[0], "first start");
    assert.deepEqual(await pageAndScripts(first.url), []);
    const starting = startTask(dirs[1], "second start");
    let started = false;
    starting.then((s) => (second = s), () => {}).finally(() => (started = true));
    // The first is asked again and again while the second builds and starts.
    const failures: string[] = [];
    let rounds = 0;
    while (!started) {
      failures.push(...await pageAndScripts(first.url));
      rounds++;
    }
    second = await starting;
    for (let i = 0; i < 3; i++) failures.push(...await pageAndScripts(first.url));
    assert.deepEqual([...new Set(failures)], []);
    assert.ok(rounds > 0);
    // And the second serves complete pages too.
    assert.deepEqual(await pageAndScripts(second.url), []);
  } finally {
    await stop(first);
    await stop(second);
    for (const dir of dirs) await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
});
