import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { JOBS } from "../../jobs/registry.ts";

/**
 * Jobs are thin ticks in one registry (jobs/registry.ts): main.ts starts and stops them all in
 * one loop (`startJobs`), the work lives in services, and no other file runs its own timer loop.
 * Read from the files, so a job started by hand in main.ts, or a `setInterval` hidden in a
 * service, fails here.
 */
const ROOT = fileURLToPath(new URL("../../", import.meta.url));

/** Timer loops outside the registry, each with its reason. */
const TIMERS_ALLOWED: Record<string, string> = {
  "server/config.ts": "validates BACKUP_CRON with a paused Cron that is never started",
};

async function* sources(dir: string): AsyncGenerator<string> {
  for await (const entry of Deno.readDir(`${ROOT}${dir}`)) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory) yield* sources(path);
    else if (/\.tsx?$/.test(entry.name) && !/_test\.tsx?$/.test(entry.name)) yield path;
  }
}

Deno.test("architecture - main.ts starts jobs only through jobs/registry.ts, in one call", async () => {
  const text = await Deno.readTextFile(`${ROOT}main.ts`);
  const fromJobs = [...text.matchAll(/["']\.\/(jobs\/[^"']+)["']/g)].map((m) => m[1]);
  assert.deepEqual(fromJobs, ["jobs/registry.ts"]);
  assert.equal(text.match(/\bstartJobs\(/g)?.length, 1, "one startJobs() call");
  assert.deepEqual(text.match(/new Cron\(|setInterval\(/g), null, "no timer of its own");
  const starts = [...text.matchAll(/\bstart\w*\(/g)].map((m) => m[0]);
  assert.deepEqual(starts, ["startJobs("], "nothing else started by hand");
});

Deno.test("architecture - jobs/ is the registry alone; no other timer loop in the server", async () => {
  const inJobs: string[] = [];
  for await (const file of sources("jobs")) inJobs.push(file);
  assert.deepEqual(inJobs, ["jobs/registry.ts"], "a job is an entry of JOBS, its work a service");
  const timers: string[] = [];
  for (const dir of ["server", "routes", "scripts", "db"]) {
    for await (const file of sources(dir)) {
      const text = await Deno.readTextFile(`${ROOT}${file}`);
      if (/new Cron\(|setInterval\(/.test(text) && !(file in TIMERS_ALLOWED)) timers.push(file);
    }
  }
  assert.deepEqual(timers, []);
});

Deno.test("architecture - every job has one name (its metrics label) and a tick", () => {
  const names = JOBS.flatMap((job) => [job.name, ...(job.then ? [job.then.name] : [])]);
  assert.equal(new Set(names).size, names.length, `names repeat: ${names}`);
  for (const job of JOBS) assert.equal(typeof job.tick, "function", job.name);
});
