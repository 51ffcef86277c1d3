import assert from "node:assert/strict";
import { sql } from "kysely";
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  createCompany,
  login,
  type TestApp,
  withApp,
} from "../helpers/app.ts";
import { eventually } from "../helpers/eventually.ts";
import { TEST_ENGINE } from "../helpers/engine.ts";
import { capturingLogs } from "../helpers/logs.ts";
import {
  canMount,
  fillDisk,
  mountSmallDisk,
  onSmallDisk,
  remount,
  unmount,
} from "../helpers/small_disk.ts";
import { connectSimulator, phoneSends } from "../whatsapp/helpers.ts";
import { JOBS, startJobs } from "../../jobs/registry.ts";
import { sweepOrphanMedia } from "../../server/media/sweep.ts";

/**
 * Issue 34: a full disk and an unwritable media folder, on real small file systems (a tmpfs
 * mounted for the test: root only; elsewhere these tests are skipped, see tests/helpers/small_disk).
 * The full-data-folder test is libSQL only (ignored on BALCAO_TEST_ENGINE=postgres): the database file
 * lives in the data folder that fills; a PostgreSQL database is on its server's disk, and the data
 * folder holds media only.
 */
const FROM = "5511987650001";
const MB = 1024 * 1024;
const PNG = new Uint8Array([137, 80, 78, 71, 13, 10, 26, 10, ...new Array(2000).fill(7)]);

/** The user takes the ticket (a reply needs it). */
async function accept(t: TestApp, token: string, ticketId: number, userId: number) {
  const res = await t.request("PUT", `/api/tickets/${ticketId}`, {
    token,
    body: { status: "open", userId },
  });
  assert.equal(res.status, 200, await res.clone().text());
}

async function filesIn(dir: string): Promise<string[]> {
  try {
    return (await Array.fromAsync(Deno.readDir(dir))).map((e) => e.name).sort();
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return [];
    throw error;
  }
}

Deno.test({
  name:
    "storage - a full data folder: 507 ERR_STORAGE_FULL on every write, /healthz 503 then 200, no partial file, nothing lost or doubled, jobs resumed, old sessions intact",
  ignore: !canMount || TEST_ENGINE === "postgres",
  fn: () =>
    onSmallDisk(24 * MB, (t, dir) =>
      capturingLogs(async (lines) => {
        const a = await createCompany(t, "Alpha");
        const wid = await connectSimulator(t, a, { isDefault: true });
        const first = await phoneSends(t, a.user.token, wid, { from: FROM, body: "oi" });
        assert.equal(first.status, 201);
        const ticketId = first.ticketId!;
        // A schedule that falls due while the disk is full: the job sends it once space is back.
        const dueAt = new Date(t.clock.now().getTime() + 60_000).toISOString();
        const contactId = (await t.deps.db.selectFrom("tickets").select("contactId")
          .where("id", "=", ticketId).executeTakeFirstOrThrow()).contactId;
        const schedule = await (await t.request("POST", "/api/schedules", {
          token: a.user.token,
          body: { body: "lembrete", contactId, sendAt: dueAt },
        })).json();
        t.clock.advance(120_000);
        const session = await login(t, a.user.email, a.user.password);
        await accept(t, session.token, ticketId, a.user.id);
        const mediaDir = `${dir}/media/${a.id}`;
        const filesBefore = await filesIn(mediaDir);
        const messagesBefore = await t.deps.db.selectFrom("messages").select("id")
          .where("companyId", "=", a.id).execute();

        // The WAL emptied first, so that every write of SQLite needs new blocks, then every block
        // taken.
        await sql`PRAGMA wal_checkpoint(TRUNCATE)`.execute(t.deps.db);
        const filler = await fillDisk(dir);

        const reply = await t.request("POST", `/api/messages/${ticketId}`, {
          token: session.token,
          body: { body: "resposta com o disco cheio" },
        });
        assert.equal(reply.status, 507, await reply.clone().text());
        const replyBody = await reply.json();
        assert.equal(replyBody.error, "ERR_STORAGE_FULL");
        assert.match(replyBody.message, /Sem espaço em disco/);

        const english = await t.request("POST", "/api/contacts", {
          token: session.token,
          body: { name: "Novo", number: "5511977776666" },
          headers: { "accept-language": "en-US,en;q=0.9" },
        });
        assert.equal(english.status, 507);
        assert.deepEqual(await english.json(), {
          error: "ERR_STORAGE_FULL",
          message:
            "The server's disk is full: nothing was saved. Try again once the administrator frees space.",
        });

        const form = new FormData();
        form.append(
          "medias",
          new File([new Uint8Array(512 * 1024)], "big.pdf", {
            type: "application/pdf",
          }),
        );
        const upload = await t.request("POST", `/api/messages/${ticketId}`, {
          token: session.token,
          body: form,
        });
        assert.equal(upload.status, 507, await upload.clone().text());
        assert.equal((await upload.json()).error, "ERR_STORAGE_FULL");

        const inbound = await phoneSends(t, session.token, wid, {
          from: FROM,
          body: "mensagem com o disco cheio",
          id: "FULL-1",
        });
        assert.equal(inbound.status, 507);
        const inboundMedia = await phoneSends(t, session.token, wid, {
          from: FROM,
          id: "FULL-2",
          media: { base64: btoa(String.fromCharCode(...PNG)), mimetype: "image/png" },
        });
        assert.equal(inboundMedia.status, 507);

        const refusedLogin = await t.request("POST", "/api/auth/login", {
          body: { email: a.user.email, password: a.user.password },
        });
        assert.equal(refusedLogin.status, 507);
        assert.equal((await refusedLogin.json()).error, "ERR_STORAGE_FULL");
        // The refused login ended nothing: the session open before still works.
        const me = await t.request("GET", "/api/auth/me", { token: session.token });
        assert.equal(me.status, 200, await me.clone().text());

        const degraded = await t.request("GET", "/healthz");
        assert.equal(degraded.status, 503);
        const health = await degraded.json();
        assert.equal(health.status, "degraded");
        assert.deepEqual(health.checks, { storage: "full", inboundHeld: 0 });
        // No half-written file was left by the refused upload or inbound media.
        assert.deepEqual(await filesIn(mediaDir), filesBefore);

        // The schedules job runs on its usual runner (faster here): paused while the disk is full.
        const schedulesJob = JOBS.find((job) => job.name === "schedules")!;
        const stop = startJobs(t.deps, [{ ...schedulesJob, every: () => ({ ms: 20 }) }]);
        try {
          assert.equal((await t.request("GET", "/healthz")).status, 503);

          // Space freed: the next probe (here /healthz) ends the state; nothing restarts.
          await Deno.remove(filler);
          const healthy = await t.request("GET", "/healthz");
          assert.equal(healthy.status, 200);
          assert.equal((await healthy.json()).status, "ok");

          await eventually(async () => {
            const row = await t.deps.db.selectFrom("schedules").select("status")
              .where("id", "=", schedule.id).where("companyId", "=", a.id)
              .executeTakeFirstOrThrow();
            return row.status === "ENVIADA" ? row : undefined;
          });
        } finally {
          await stop();
        }

        // The phone sends again what was refused: stored once each.
        assert.equal(
          (await phoneSends(t, session.token, wid, {
            from: FROM,
            body: "mensagem com o disco cheio",
            id: "FULL-1",
          })).status,
          201,
        );
        assert.equal(
          (await phoneSends(t, session.token, wid, { from: FROM, body: "de novo", id: "FULL-1" }))
            .duplicate,
          true,
        );
        const again = await t.request("POST", `/api/messages/${ticketId}`, {
          token: session.token,
          body: { body: "resposta com espaço" },
        });
        assert.equal(again.status, 201, await again.clone().text());
        const messagesAfter = await t.deps.db.selectFrom("messages").select(["id", "wid", "body"])
          .where("companyId", "=", a.id).execute();
        // Before + FULL-1 + the reply + the schedule's message: nothing refused was half-stored.
        assert.equal(messagesAfter.length, messagesBefore.length + 3);
        assert.equal(messagesAfter.filter((m) => m.wid === "FULL-1").length, 1);
        assert.equal(messagesAfter.filter((m) => m.wid === "FULL-2").length, 0);
        assert.equal(
          messagesAfter.filter((m) => m.body === "resposta com o disco cheio").length,
          0,
        );
        assert.equal((await login(t, a.user.email, a.user.password)).token.length > 0, true);

        // One line when the state began and one when it ended; no stack per request.
        assert.equal(lines.filter((l) => l.includes("storage full")).length, 1, lines.join("\n"));
        assert.equal(lines.filter((l) => l.includes("storage writable again")).length, 1);
        assert.equal(
          lines.filter((l) => /unhandled error|request failed|job failed|"stack"/.test(l)).length,
          0,
          lines.join("\n"),
        );
      })),
});

Deno.test({
  name:
    "storage - an unwritable media folder: inbound media messages are kept with their media pending (201), and get their files once it is writable again",
  ignore: !canMount,
  fn: () =>
    withApp(async (t) => {
      const a = await createCompany(t, "Alpha");
      const wid = await connectSimulator(t, a);
      const media = `${t.dir}/media`;
      await mountSmallDisk(media, 4 * MB);
      const stop = startJobs(t.deps, JOBS.filter((job) => job.name === "media_retry"));
      try {
        await remount(media, "ro");
        const sent = await phoneSends(t, a.user.token, wid, {
          from: FROM,
          body: "a foto",
          media: { base64: btoa(String.fromCharCode(...PNG)), mimetype: "image/png" },
        });
        assert.equal(sent.status, 201);
        assert.equal(sent.stored, true);
        const row = await t.deps.db.selectFrom("messages").selectAll()
          .where("id", "=", sent.id!).where("companyId", "=", a.id).executeTakeFirstOrThrow();
        assert.equal(row.mediaPending, 1);
        assert.equal(row.mediaUrl, null);
        assert.equal(row.mediaType, "image");
        const page = await (await t.request("GET", `/api/messages/${sent.ticketId}`, {
          token: a.user.token,
        })).json();
        const view = page.messages.find((m: { id: number }) => m.id === sent.id);
        assert.equal(view.mediaPending, true);
        assert.equal(view.mediaUrl, null);

        const degraded = await t.request("GET", "/healthz");
        assert.equal(degraded.status, 503);
        assert.equal((await degraded.json()).checks.storage, "unavailable");
        // Any other upload answers 503 meanwhile.
        await accept(t, a.user.token, sent.ticketId!, a.user.id);
        const form = new FormData();
        form.append("medias", new File(["%PDF-1.4"], "a.pdf", { type: "application/pdf" }));
        const upload = await t.request("POST", `/api/messages/${sent.ticketId}`, {
          token: a.user.token,
          body: form,
        });
        assert.equal(upload.status, 503);
        assert.equal((await upload.json()).error, "ERR_STORAGE_UNAVAILABLE");

        await remount(media, "rw");
        assert.equal((await t.request("GET", "/healthz")).status, 200);
        const settled = await eventually(async () => {
          const now = await t.deps.db.selectFrom("messages").selectAll()
            .where("id", "=", sent.id!).where("companyId", "=", a.id).executeTakeFirstOrThrow();
          return now.mediaPending === 0 ? now : undefined;
        });
        assert.ok(settled.mediaUrl);
        const file = await t.request("GET", `/api/messages/${sent.id}/media`, {
          token: a.user.token,
        });
        assert.equal(file.status, 200);
        assert.deepEqual(new Uint8Array(await file.arrayBuffer()), PNG);
      } finally {
        await stop();
        await unmount(media);
      }
    }),
});

Deno.test({
  name: "storage - a backup refuses with a clear message when its folder lacks the room it needs",
  ignore: !canMount,
  fn: async () => {
    const backups = await Deno.makeTempDir({ prefix: "balcao-backups-" });
    await mountSmallDisk(backups, 2 * MB);
    try {
      await withApp(async (t) => {
        const token = (await login(t, ADMIN_EMAIL, ADMIN_PASSWORD)).token;
        const res = await t.request("POST", "/api/backups", { token });
        assert.equal(res.status, 507);
        const body = await res.json();
        assert.equal(body.error, "ERR_STORAGE_FULL");
        assert.match(body.message, /Espaço livre insuficiente para o backup/);
        assert.deepEqual(await filesIn(backups), []);
        // Not a failing disk: the app's own storage stays healthy.
        assert.equal((await t.request("GET", "/healthz")).status, 200);
      }, { BACKUP_DIR: backups });
    } finally {
      await unmount(backups);
      await Deno.remove(backups, { recursive: true }).catch(() => {});
    }
  },
});

Deno.test("storage - a login refused for lack of space when its session is written leaves the other sessions as they were", () =>
  withApp(async (t) => {
    const a = await createCompany(t, "Alpha");
    const before = await login(t, a.user.email, a.user.password);
    // SQLite refuses the new session's row as a full disk would, after the old sessions were
    // marked ended in the same login: the same error text, the same code path.
    await sql`CREATE TRIGGER full_disk BEFORE INSERT ON sessions
      BEGIN SELECT RAISE(ABORT, 'database or disk is full'); END`.execute(t.deps.db);
    const refused = await t.request("POST", "/api/auth/login", {
      body: { email: a.user.email, password: a.user.password },
    });
    assert.equal(refused.status, 507);
    assert.equal((await refused.json()).error, "ERR_STORAGE_FULL");
    assert.equal((await t.request("GET", "/api/auth/me", { token: before.token })).status, 200);
    const live = await t.deps.db.selectFrom("sessions").select("id").where("companyId", "=", a.id)
      .where("userId", "=", a.user.id).where("endedAt", "is", null).execute();
    assert.equal(live.length, 1);

    await sql`DROP TRIGGER full_disk`.execute(t.deps.db);
    assert.equal((await t.request("GET", "/healthz")).status, 200);
    await login(t, a.user.email, a.user.password);
    assert.equal((await t.request("GET", "/api/auth/me", { token: before.token })).status, 401);
  }));

Deno.test("storage - the start-up sweep removes media files no row points to, older than an hour, and partial files", () =>
  withApp(async (t) => {
    const a = await createCompany(t, "Alpha");
    const dir = `${t.dir}/media/${a.id}`;
    await Deno.mkdir(dir, { recursive: true });
    const file = async (name: string, hoursOld: number) => {
      await Deno.writeFile(`${dir}/${name}`, new Uint8Array(10));
      const at = new Date(Date.now() - hoursOld * 3600_000);
      await Deno.utime(`${dir}/${name}`, at, at);
    };
    const kept = `${crypto.randomUUID()}.png`;
    await t.deps.db.insertInto("quick_messages").values({
      companyId: a.id,
      shortcode: "oi",
      message: "olá",
      userId: a.admin.id,
      mediaPath: `${a.id}/${kept}`,
      mediaName: "a.png",
      createdAt: t.clock.now().toISOString(),
      updatedAt: t.clock.now().toISOString(),
    }).execute();
    const orphan = `${crypto.randomUUID()}.pdf`;
    const young = `${crypto.randomUUID()}.pdf`;
    await file(kept, 5);
    await file(orphan, 2);
    await file(young, 0);
    await file(".partial-123", 2);
    await file("notes.txt", 2);
    assert.deepEqual(await sweepOrphanMedia(t.deps), { removed: 2, bytes: 20 });
    assert.deepEqual(await filesIn(dir), [kept, "notes.txt", young].sort());
    assert.deepEqual(await sweepOrphanMedia(t.deps), { removed: 0, bytes: 0 });
  }));

Deno.test("storage - GET /api/storage tells admins and super users the state and whether free space is low; users may not ask", async () => {
  for (
    const [env, low] of [[{ STORAGE_WARN_BYTES: String(2 ** 52) }, true], [{
      STORAGE_WARN_BYTES: "0",
      STORAGE_WARN_PERCENT: "0",
    }, false]] as const
  ) {
    await withApp(async (t) => {
      const a = await createCompany(t, "Alpha");
      const res = await t.request("GET", "/api/storage", { token: a.admin.token });
      assert.equal(res.status, 200);
      const body = await res.json();
      assert.equal(body.state, "ok");
      assert.equal(body.low, low);
      assert.ok(body.freeBytes > 0 && body.totalBytes >= body.freeBytes);
      const superUser = (await login(t, ADMIN_EMAIL, ADMIN_PASSWORD)).token;
      assert.equal((await t.request("GET", "/api/storage", { token: superUser })).status, 200);
      const refused = await t.request("GET", "/api/storage", { token: a.user.token });
      assert.equal(refused.status, 403);
    }, env);
  }
});

Deno.test("storage - /metrics tells the free bytes of the data folder, whether storage fails and the held inbound events", () =>
  withApp(async (t) => {
    const res = await t.request("GET", "/metrics", {
      headers: { authorization: "Bearer metrics-token-0123456789" },
    });
    assert.equal(res.status, 200);
    const text = await res.text();
    const value = (name: string) => Number(new RegExp(`^${name} (\\S+)$`, "m").exec(text)?.[1]);
    assert.ok(value("balcao_data_free_bytes") > 0);
    assert.ok(value("balcao_data_total_bytes") >= value("balcao_data_free_bytes"));
    assert.equal(value("balcao_storage_failing"), 0);
    assert.equal(value("balcao_inbound_held_events"), 0);
  }, { METRICS_TOKEN: "metrics-token-0123456789" }));
