/**
 * `deno task stress`: the flake hunt of issue 36 item 7. Runs the suite's realtime and isolation
 * tests RUNS times at once (default 20), each run one `deno test` process, while busy loops
 * started here keep every core loaded. A test that waits for time instead of a fact fails here long
 * before it fails in CI. Prints each run's result and every test that failed, with how often in
 * how many runs; exits 1 on any failure.
 *
 *   deno task stress                                # 20 runs, one busy loop per core
 *   RUNS=5 BURNERS=4 deno task stress               # fewer runs, more load
 *   deno task stress tests/realtime/hub_test.ts     # these files only
 *
 * The tests: those that open WebSockets (TestSocket, sockets(), withServer, withServedApp, serve:
 * realtime events, and the "company B heard nothing" half of isolation) and all of
 * tests/realtime/, read from the files (tests/e2e/ aside: browsers). Logs stay in STRESS_DIR (a
 * new temporary folder by default). The whole hunt runs at `nice` STRESS_NICE (10), so that other
 * work on the machine is not starved: the runs and the busy loops still compete with each other.
 */
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../", import.meta.url));
const env = (name: string, fallback: string) => Deno.env.get(name) ?? fallback;
const RUNS = Number(env("RUNS", "20"));
const BURNERS = Number(env("BURNERS", String(navigator.hardwareConcurrency)));
const NICE = env("STRESS_NICE", "10");
const RUN_TIMEOUT_S = Number(env("RUN_TIMEOUT_S", "7200"));
const SOCKETS = /TestSocket|sockets\(|withServer\(|withServedApp\(|\bserve\(t\)|\.settle\(/;

// deno-lint-ignore no-console
const say = (line: string) => console.log(line);

async function* testFiles(dir: string): AsyncGenerator<string> {
  for await (const entry of Deno.readDir(`${ROOT}${dir}`)) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory && path !== "tests/e2e") yield* testFiles(path);
    else if (/_test\.tsx?$/.test(entry.name)) yield path;
  }
}

/** The names of a file's tests that the hunt runs: each Deno.test block read as text. */
function selectedTests(file: string, text: string): string[] {
  const blocks = text.split(/\bDeno\.test\(/).slice(1);
  const names: string[] = [];
  for (const block of blocks) {
    if (!file.startsWith("tests/realtime/") && !SOCKETS.test(block)) continue;
    const literal = /^\s*("(?:[^"\\]|\\.)*")/.exec(block)?.[1];
    if (!literal) throw new Error(`${file}: a test to run whose name is not a plain string`);
    names.push(JSON.parse(literal));
  }
  return names;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");

async function selection(given: string[]) {
  const candidates = given.length ? given : await Array.fromAsync(testFiles("tests"));
  const files: string[] = [];
  const names: string[] = [];
  for (const file of candidates.sort()) {
    const picked = selectedTests(file, await Deno.readTextFile(`${ROOT}${file}`));
    if (picked.length === 0) continue;
    files.push(file);
    names.push(...picked);
  }
  return { files, names };
}

/**
 * What a `deno test` log (NO_COLOR) lists after its FAILURES banner: "<test name> => <file>:<line>".
 */
function failuresIn(log: string): string[] {
  const at = log.lastIndexOf(" FAILURES ");
  if (at < 0) return [];
  return [
    ...new Set(
      log.slice(at).split("\n").filter((l) => l.includes(" => ")).map((l) =>
        l.slice(0, l.indexOf(" => "))
      ),
    ),
  ];
}

const { files, names } = await selection(Deno.args);
const out = Deno.env.get("STRESS_DIR") ?? await Deno.makeTempDir({ prefix: "balcao-stress-" });
await Deno.mkdir(out, { recursive: true });
say(
  `stress: ${names.length} tests in ${files.length} files x ${RUNS} parallel runs, ` +
    `${BURNERS} busy loops; logs in ${out}`,
);

// Type-checked once here, so that the runs do not all check at once.
const check = await new Deno.Command(Deno.execPath(), {
  args: ["check", "--lock=tests/deno.lock", ...files],
  cwd: ROOT,
}).output();
if (!check.success) {
  say(new TextDecoder().decode(check.stderr));
  Deno.exit(1);
}

const children: Deno.ChildProcess[] = [];
const stopAll = () => {
  // Only what this script started, by its handle.
  for (const child of children) {
    try {
      child.kill("SIGKILL");
    } catch {
      // already gone
    }
  }
};
Deno.addSignalListener("SIGINT", () => {
  stopAll();
  Deno.exit(130);
});
Deno.addSignalListener("SIGTERM", () => {
  stopAll();
  Deno.exit(143);
});

for (let i = 0; i < BURNERS; i++) {
  children.push(
    new Deno.Command("nice", { args: ["-n", NICE, "bash", "-c", "while :; do :; done"] }).spawn(),
  );
}

// The load to apply is CPU, not disk: the apps' temporary databases go to memory when it can
// (STRESS_TMPDIR), or every fsync of twenty runs queues on one disk. node_modules is used as
// installed (manual): otherwise every process and worker waits for its lock in turn.
let tmp = Deno.env.get("STRESS_TMPDIR") ?? Deno.env.get("TMPDIR") ?? "/tmp";
if (!Deno.env.has("STRESS_TMPDIR")) {
  try {
    if ((await Deno.stat("/dev/shm")).isDirectory) tmp = "/dev/shm";
  } catch {
    // no /dev/shm: the usual temporary folder
  }
}
const filter = `/^(?:${names.map(escapeRegExp).join("|")})$/`;
const started = Date.now();
const runs = Array.from({ length: RUNS }, async (_, i) => {
  const log = `${out}/run-${i + 1}.log`;
  const child = new Deno.Command("nice", {
    args: [
      "-n",
      NICE,
      Deno.execPath(),
      "test",
      "--lock=tests/deno.lock",
      "-A",
      "--no-check",
      "--node-modules-dir=manual",
      `--filter=${filter}`,
      ...files,
    ],
    cwd: ROOT,
    env: { TMPDIR: tmp, LOG_LEVEL: "warn", NO_COLOR: "1" },
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  children.push(child);
  const timer = setTimeout(() => child.kill("SIGKILL"), RUN_TIMEOUT_S * 1000);
  const [stdout, stderr, status] = await Promise.all([
    new Response(child.stdout).text(),
    new Response(child.stderr).text(),
    child.status,
  ]);
  clearTimeout(timer);
  await Deno.writeTextFile(log, stdout + stderr);
  const failed = failuresIn(stdout + stderr);
  say(
    `run ${i + 1}: ${status.success ? "passed" : `FAILED (exit ${status.code})`}` +
      (failed.length ? `: ${failed.join("; ")}` : ""),
  );
  return { ok: status.success, failed };
});
const results = await Promise.all(runs);
stopAll();

const passed = results.filter((r) => r.ok).length;
say(`stress: ${passed}/${RUNS} runs passed in ${Math.round((Date.now() - started) / 1000)} s`);
const counts = new Map<string, number>();
for (const r of results) for (const name of r.failed) counts.set(name, (counts.get(name) ?? 0) + 1);
for (const [name, count] of [...counts].sort((a, b) => b[1] - a[1])) {
  say(`  ${count}/${RUNS} runs: ${name}`);
}
Deno.exit(passed === RUNS ? 0 : 1);
