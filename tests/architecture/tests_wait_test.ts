import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";

/**
 * Tests wait for facts, never for time (STYLE, issue 36 item 7): a fixed sleep passes on an idle
 * machine and fails on a busy one, or worse, lets a test pass before the thing it checks arrived.
 * So, in every test file (tests/ and the server's *_test.ts), no sleep. The ways to wait:
 * - `eventually(fact)` (tests/helpers/eventually.ts) for what happens on its own time;
 * - `TestSocket.next(match)` for an event, `TestSocket.settle()` (a ping/pong barrier) before
 *   asserting that a socket heard nothing.
 *
 * Allowed: tests/fakes/ (a fake service simulates time: a slow answer, a timer of its own), the
 * helper itself, this file's samples, and tests/bench/ (benchmarks pace their load by the clock and measure it; they
 * are not part of the test run).
 */
const ROOT = fileURLToPath(new URL("../../", import.meta.url));

const ALLOWED_DIRS = ["tests/fakes/", "tests/bench/"];
const ALLOWED_FILES = new Set([
  "tests/helpers/eventually.ts",
  // This file: its samples of what a sleep looks like.
  "tests/architecture/tests_wait_test.ts",
]);

/**
 * The shapes of a sleep: a timer whose callback only resumes a waiting promise
 * (`setTimeout(resolve, ms)`, `setTimeout(() => resolve(), ms)`), and the usual wrappers
 * (`delay(ms)` of std/async, a `sleep(ms)`). A timer that rejects (a deadline) or does work is
 * not a wait.
 */
const SLEEPS: { name: string; pattern: RegExp }[] = [
  { name: "setTimeout(resolve, ms)", pattern: /\bsetTimeout\(\s*[A-Za-z_$][\w$]*\s*,/g },
  {
    name: "setTimeout(() => resolve(), ms)",
    pattern: /\bsetTimeout\(\s*(?:\(\s*\)|_)\s*=>\s*[A-Za-z_$][\w$]*\(\s*(?:undefined)?\s*\)\s*,/g,
  },
  { name: "sleep(ms)", pattern: /\bsleep\s*\(/g },
  { name: "delay(ms)", pattern: /\bimport\s*\{[^}]*\bdelay\b[^}]*\}\s*from\s*["'][^"']*async/g },
];

/** Every sleep in `text`: the shape and its line. */
export function sleepsIn(text: string): { name: string; line: number }[] {
  const found: { name: string; line: number }[] = [];
  for (const { name, pattern } of SLEEPS) {
    for (const match of text.matchAll(pattern)) {
      found.push({ name, line: text.slice(0, match.index).split("\n").length });
    }
  }
  return found.sort((a, b) => a.line - b.line);
}

async function* files(dir: string): AsyncGenerator<string> {
  for await (const entry of Deno.readDir(`${ROOT}${dir}`)) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory) yield* files(path);
    else if (/\.tsx?$/.test(entry.name)) yield path;
  }
}

/** Test files: everything under tests/ (tests and their helpers), and *_test.ts elsewhere. */
async function testFiles(): Promise<string[]> {
  const out: string[] = [];
  for await (const file of files("tests")) out.push(file);
  for (const dir of ["server", "contract", "islands", "jobs", "db", "routes", "scripts"]) {
    for await (const file of files(dir)) if (/_test\.tsx?$/.test(file)) out.push(file);
  }
  return out.filter((file) =>
    !ALLOWED_FILES.has(file) && !ALLOWED_DIRS.some((dir) => file.startsWith(dir))
  ).sort();
}

Deno.test("tests wait - the detector knows a sleep from a deadline", () => {
  const sleeps = [
    "await new Promise((r) => setTimeout(r, 50));",
    "await new Promise((resolve) => setTimeout(resolve, LEASE_SECONDS * 1500));",
    "await new Promise<void>((done) => setTimeout(() => done(), 10));",
    "await sleep(100);",
    'import { delay } from "jsr:@std/async";',
  ];
  for (const text of sleeps) assert.equal(sleepsIn(text).length, 1, text);
  const waits = [
    "const timer = setTimeout(() => reject(new Error('timed out')), ms);",
    "timer = setTimeout(() => reject(new DeadlineError(message())), ms);",
    "setTimeout(() => { this.#greet(socket); greeted(); }, 0);",
    "const abort = setTimeout(() => controller.abort(), ms);",
    "await eventually(() => rows.length === 2);",
  ];
  for (const text of waits) assert.deepEqual(sleepsIn(text), [], text);
});

Deno.test("tests wait - no test file sleeps: it waits for the fact (eventually, next, settle)", async () => {
  const offenders: string[] = [];
  for (const file of await testFiles()) {
    const text = await Deno.readTextFile(`${ROOT}${file}`);
    for (const { name, line } of sleepsIn(text)) offenders.push(`${file}:${line} ${name}`);
  }
  assert.deepEqual(offenders, [], "wait for the fact instead (tests/helpers/eventually.ts)");
});
