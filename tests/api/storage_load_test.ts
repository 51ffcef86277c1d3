import assert from "node:assert/strict";
import { sql } from "kysely";
import { createCompany, login, type TestApp } from "../helpers/app.ts";
import { eventually } from "../helpers/eventually.ts";
import { TEST_ENGINE } from "../helpers/engine.ts";
import { capturingLogs } from "../helpers/logs.ts";
import { serve } from "../helpers/server.ts";
import {
  canMount,
  fillDisk,
  freeze,
  mountFreezableDisk,
  onSmallDisk,
  thaw,
} from "../helpers/small_disk.ts";
import { connectSimulator, phoneSends } from "../whatsapp/helpers.ts";

/**
 * Issue 44 item 1: the data folder fills up WHILE inbound messages (text and media), replies and
 * logins go on, so that every statement of every write path (the BEGIN, one in the middle, the
 * COMMIT) may be the one that meets the full disk. Each refused write answers 507 (or 503), never
 * 500: SQLite may roll a transaction back by itself on SQLITE_FULL. libSQL only (ignored on
 * BALCAO_TEST_ENGINE=postgres): on PostgreSQL the database is not in the data folder that fills.
 */
const MB = 1024 * 1024;
const PNG = new Uint8Array([137, 80, 78, 71, 13, 10, 26, 10, ...new Array(6000).fill(7)]);
const PNG64 = btoa(String.fromCharCode(...PNG));

type Kind = "inbound text" | "inbound media" | "reply" | "login";
type Answer = { kind: Kind; status: number; error?: string };

/**
 * Writers of every kind running side by side until `stop` says so; every answer recorded. The
 * inbound writers use a contact each, the repliers a ticket each (taken by the user).
 */
async function writers(t: TestApp, answers: Answer[], stop: () => boolean) {
  const a = await createCompany(t, "Alpha");
  const wid = await connectSimulator(t, a, { isDefault: true });
  const session = await login(t, a.user.email, a.user.password);
  const tickets: number[] = [];
  for (const from of ["5511987650101", "5511987650102"]) {
    const first = await phoneSends(t, session.token, wid, { from, body: "oi" });
    assert.equal(first.status, 201);
    const taken = await t.request("PUT", `/api/tickets/${first.ticketId}`, {
      token: session.token,
      body: { status: "open", userId: a.user.id },
    });
    assert.equal(taken.status, 200, await taken.clone().text());
    tickets.push(first.ticketId!);
  }
  let n = 0;
  const record = async (kind: Kind, res: Response) => {
    const text = await res.text();
    let error: string | undefined;
    try {
      error = JSON.parse(text).error;
    } catch {
      error = text.slice(0, 80);
    }
    answers.push({ kind, status: res.status, error });
  };
  const loop = async (fn: () => Promise<void>) => {
    while (!stop()) await fn();
  };
  const inbound = (kind: Kind, from: string, media: boolean) =>
    loop(async () => {
      const id = `LOAD-${n++}`;
      const body = media
        ? { from, id, media: { base64: PNG64, mimetype: "image/png" } }
        : { from, id, body: `mensagem ${id} ${"x".repeat(400)}` };
      await record(
        kind,
        await t.request("POST", `/api/simulator/${wid}/messages`, { token: session.token, body }),
      );
    });
  const reply = (ticketId: number) =>
    loop(async () => {
      await record(
        "reply",
        await t.request("POST", `/api/messages/${ticketId}`, {
          token: session.token,
          body: { body: `resposta ${n++} ${"y".repeat(400)}` },
        }),
      );
    });
  const logins = () =>
    loop(async () => {
      await record(
        "login",
        await t.request("POST", "/api/auth/login", {
          body: { email: a.admin.email, password: a.admin.password },
        }),
      );
    });
  return () =>
    Promise.all([
      inbound("inbound text", "5511987650101", false),
      inbound("inbound text", "5511987650103", false),
      inbound("inbound media", "5511987650102", true),
      inbound("inbound media", "5511987650104", true),
      reply(tickets[0]),
      reply(tickets[1]),
      logins(),
    ]);
}

/** How many refusals of each kind were seen (a full disk met by every path). */
function refusals(answers: Answer[]): Record<Kind, number> {
  const counts: Record<Kind, number> = {
    "inbound text": 0,
    "inbound media": 0,
    "reply": 0,
    "login": 0,
  };
  for (const answer of answers) if (answer.status >= 400) counts[answer.kind]++;
  return counts;
}

Deno.test({
  name:
    "storage under load - the data folder fills while inbound texts and media, replies and logins go on: every refusal is 507 ERR_STORAGE_FULL, none 500",
  ignore: !canMount || TEST_ENGINE === "postgres",
  fn: () =>
    onSmallDisk(24 * MB, (t, dir) =>
      capturingLogs(async (lines) => {
        const answers: Answer[] = [];
        let stopped = false;
        const start = await writers(t, answers, () => stopped);
        await sql`PRAGMA wal_checkpoint(TRUNCATE)`.execute(t.deps.db);
        const running = start();
        let filler: string | undefined;
        try {
          // The disk fills while they write; they go on until every kind met it many times.
          filler = await fillDisk(dir);
          await eventuallyEnough(answers);
        } finally {
          stopped = true;
          await running;
        }
        await Deno.remove(filler);

        const wrong = answers.filter((a) =>
          a.status >= 400 && !(a.status === 507 && a.error === "ERR_STORAGE_FULL")
        );
        const summary = new Map<string, number>();
        for (const a of wrong) {
          const key = `${a.kind} ${a.status} ${a.error}`;
          summary.set(key, (summary.get(key) ?? 0) + 1);
        }
        assert.deepEqual(
          Object.fromEntries(summary),
          {},
          `of ${answers.filter((a) => a.status >= 400).length} refusals`,
        );

        // Nothing of a refused transaction was half-kept: what SQLite rolled back stayed so.
        assert.deepEqual((await sql`PRAGMA foreign_key_check`.execute(t.deps.db)).rows, []);
        const unhandled = lines.filter((l) =>
          /unhandled error|request failed|outbox loop failed/.test(l)
        );
        assert.deepEqual(unhandled, []);

        // Space back: every kind of write works again.
        assert.equal((await t.request("GET", "/healthz")).status, 200);
        const session = await login(t, "admin@alpha.test", "password1");
        const created = await t.request("POST", "/api/contacts", {
          token: session.token,
          body: { name: "Depois", number: "5511977776666" },
        });
        assert.equal(created.status, 201, await created.clone().text());
      })),
});

/** Waits until every kind of writer was refused at least 15 times. */
async function eventuallyEnough(answers: Answer[]) {
  await eventually(() => Object.values(refusals(answers)).every((n) => n >= 15), {
    timeoutMs: 120_000,
    what: "every kind of write refused 15 times",
  });
}

Deno.test({
  name:
    "storage under load - /healthz answers every poll while the data folder fills under writes and while a probe write stalls: 200, 503, then 200",
  ignore: !canMount || TEST_ENGINE === "postgres",
  fn: () =>
    onSmallDisk(24 * MB, async (t, dir) => {
      // The media folder on a disk that can stall (frozen ext4): a probe's write there waits.
      const media = `${dir}/media`;
      const removeMedia = await mountFreezableDisk(media, 16 * MB);
      const server = serve(t);
      const answers: Answer[] = [];
      const polls: (number | string)[] = [];
      let stopped = false;
      let polling = true;
      // One poll after another, each given 2 s to be answered: a health check that does not
      // answer in that time is silent, whatever it would have said.
      const poller = (async () => {
        while (polling) {
          try {
            const res = await fetch(`${server.url}/healthz`, {
              signal: AbortSignal.timeout(2_000),
            });
            await res.body?.cancel();
            polls.push(res.status);
          } catch (error) {
            polls.push(`no answer: ${(error as Error).name}`);
          }
        }
      })();
      const pollsAfter = async (what: string, count = 5) => {
        const from = polls.length;
        await eventually(() => polls.length >= from + count, { what });
        return polls.slice(from);
      };
      try {
        const start = await writers(t, answers, () => stopped);
        await sql`PRAGMA wal_checkpoint(TRUNCATE)`.execute(t.deps.db);
        const running = start();
        try {
          const filler = await fillDisk(dir);
          await eventuallyEnough(answers);
          await eventually(() => polls.filter((p) => p === 503).length >= 10);
          // Space comes back while the media disk stalls: the probe that would end the state
          // waits on its write there; /healthz still answers, with what it knows (503).
          await freeze(media);
          try {
            await Deno.remove(filler);
            assert.deepEqual(await pollsAfter("polls while a probe stalls"), [
              503,
              503,
              503,
              503,
              503,
            ]);
          } finally {
            await thaw(media);
          }
          const before = polls.length;
          await eventually(() => polls.slice(before).includes(200), { what: "200 once thawed" });
        } finally {
          stopped = true;
          await running;
        }
      } finally {
        polling = false;
        await poller;
        await server.close();
        await removeMedia();
      }
      const silent = polls.filter((p) => typeof p === "string");
      assert.deepEqual(silent, [], `${silent.length} of ${polls.length} polls unanswered`);
      assert.deepEqual(polls.filter((p) => p !== 200 && p !== 503), []);
    }),
});
