import assert from "node:assert/strict";
import { parsePrometheusTextFormat } from "../helpers/packages.ts";
import { createCompany, type TestApp, withApp } from "../helpers/app.ts";
import { eventually } from "../helpers/eventually.ts";
import { connectSimulator, phoneSends, sentBy } from "../whatsapp/helpers.ts";
import { countedJob } from "../../server/metrics/registry.ts";
import { knownMigrations } from "../../db/migrate.ts";
import { serve, TestSocket } from "../helpers/server.ts";

const TOKEN = "metrics-token-0123456789";

type Family = {
  name: string;
  type: string;
  metrics: { value?: string; labels?: Record<string, string>; buckets?: Record<string, string> }[];
};

/** Scrapes /metrics with the token and parses it with an independent parser of the format. */
async function scrape(t: TestApp): Promise<Map<string, Family>> {
  const res = await t.request("GET", "/metrics", { headers: { authorization: `Bearer ${TOKEN}` } });
  assert.equal(res.status, 200);
  assert.match(res.headers.get("content-type") ?? "", /^text\/plain; version=0\.0\.4/);
  const families = parsePrometheusTextFormat(await res.text()) as Family[];
  return new Map(families.map((family) => [family.name, family]));
}

/** The value of the series of `name` whose labels include `labels` (0 when absent). */
function value(families: Map<string, Family>, name: string, labels: Record<string, string> = {}) {
  const family = families.get(name);
  assert.ok(family, `${name} is exported`);
  const series = family.metrics.find((m) =>
    Object.entries(labels).every(([k, v]) => m.labels?.[k] === v)
  );
  return series?.value === undefined ? 0 : Number(series.value);
}

Deno.test("metrics - off without METRICS_TOKEN: 404, nothing exposed", async () => {
  await withApp(async (t) => {
    const res = await t.request("GET", "/metrics", {
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    assert.equal(res.status, 404);
    assert.equal((await res.json()).error, "ERR_NOT_FOUND");
  });
});

Deno.test("metrics - scraped and parsed: requests, messages, outbox, sessions, jobs, database", async () => {
  await withApp(async (t) => {
    // A missing or wrong token is refused, and says so.
    for (const authorization of [undefined, "Bearer wrong-token-0123456789", TOKEN]) {
      const res = await t.request("GET", "/metrics", {
        headers: authorization ? { authorization } : {},
      });
      assert.equal(res.status, 401);
      assert.equal((await res.json()).error, "ERR_UNAUTHORIZED");
      assert.match(res.headers.get("www-authenticate") ?? "", /^Bearer/);
    }

    const before = await scrape(t);
    const company = await createCompany(t, "Metrica");
    const wid = await connectSimulator(t, company);
    const first = await phoneSends(t, company.user.token, wid, {
      from: "5511988887777",
      body: "oi",
      id: "M1",
    });
    assert.equal(first.stored, true);
    const again = await phoneSends(t, company.user.token, wid, {
      from: "5511988887777",
      body: "oi",
      id: "M1",
    });
    assert.equal(again.duplicate, true);

    // An attendant accepts and answers: one outbound message through the outbox.
    const accept = await t.request("PUT", `/api/tickets/${first.ticketId}`, {
      token: company.admin.token,
      body: { action: "accept" },
    });
    assert.equal(accept.status, 200, await accept.clone().text());
    const sent = await t.request("POST", `/api/messages/${first.ticketId}`, {
      token: company.admin.token,
      body: { body: "Olá!" },
    });
    assert.equal(sent.status, 201);
    await eventually(async () =>
      (await sentBy(t, company.admin.token, wid)).some((m) => m.body.endsWith("Olá!"))
    );
    await t.deps.sessions.outbox.idle();

    // Two ticks of a job, one failing.
    await countedJob("drill", () => Promise.resolve());
    await countedJob("drill", () => Promise.reject(new Error("boom"))).catch(() => {});

    const after = await scrape(t);
    const delta = (name: string, labels: Record<string, string>) =>
      value(after, name, labels) - value(before, name, labels);

    assert.equal(
      delta("balcao_inbound_messages_total", { provider: "simulator", result: "stored" }),
      1,
    );
    assert.equal(
      delta("balcao_inbound_messages_total", { provider: "simulator", result: "duplicate" }),
      1,
    );
    assert.ok(
      delta("balcao_outbound_messages_total", { provider: "simulator", result: "sent" }) >= 1,
    );
    assert.equal(value(after, "balcao_outbox_pending"), 0);
    assert.equal(value(after, "balcao_outbox_oldest_pending_age_seconds"), 0);
    assert.equal(value(after, "balcao_whatsapp_sessions", { status: "CONNECTED" }), 1);
    assert.equal(value(after, "balcao_whatsapp_sessions", { status: "TIMEOUT" }), 0);
    assert.equal(value(after, "balcao_whatsapp_sessions_running"), 1);
    assert.equal(value(after, "balcao_open_sockets"), 0);
    assert.equal(delta("balcao_job_runs_total", { job: "drill" }), 2);
    assert.equal(delta("balcao_job_failures_total", { job: "drill" }), 1);

    // Requests by route pattern, never by raw path.
    const requests = after.get("balcao_http_requests_total")!;
    const route = `/api/tickets/:id`;
    assert.ok(
      requests.metrics.some((m) =>
        m.labels?.route === route && m.labels?.method === "PUT" && m.labels?.status === "200"
      ),
      "the accept is counted under its route pattern",
    );
    assert.ok(!requests.metrics.some((m) => m.labels?.route?.includes(String(first.ticketId))));
    assert.equal(after.get("balcao_http_request_duration_seconds")?.type, "HISTOGRAM");
    assert.equal(after.get("balcao_db_query_duration_seconds")?.type, "HISTOGRAM");
    assert.ok(after.has("balcao_db_thread_queue_depth"));
    // Where the database thread's time went, by statement (issue 49): the accept above updated
    // its ticket, so "update tickets" waited and ran.
    const statements = after.get("balcao_db_statement_seconds_total")!.metrics;
    for (const part of ["wait", "run"]) {
      assert.ok(
        statements.some((m) => m.labels?.statement === "update tickets" && m.labels?.part === part),
        `update tickets ${part}`,
      );
    }
    assert.ok(after.has("balcao_process_resident_memory_bytes"));
  }, { METRICS_TOKEN: TOKEN });
});

Deno.test("metrics - the outbox's waiting rows are its depth and oldest age", async () => {
  await withApp(async (t) => {
    const company = await createCompany(t, "Fila");
    const wid = await connectSimulator(t, company);
    // The connection drops: what is queued now waits.
    await t.request("DELETE", `/api/whatsappsession/${wid}`, { token: company.admin.token });
    const stamp = new Date(t.clock.now().getTime() - 90_000).toISOString();
    await t.deps.db.insertInto("outbox").values({
      companyId: company.id,
      whatsappId: wid,
      ticketId: null,
      messageId: null,
      wid: "W1",
      toJid: "5511988887777@s.whatsapp.net",
      mediaPath: null,
      mediaMimetype: null,
      mediaName: null,
      quotedWid: null,
      claimId: null,
      nextAttemptAt: stamp,
      lastError: null,
      sentAt: null,
      createdAt: stamp,
      updatedAt: stamp,
    }).execute();
    const families = await scrape(t);
    assert.equal(value(families, "balcao_outbox_pending"), 1);
    assert.equal(value(families, "balcao_outbox_oldest_pending_age_seconds"), 90);
  }, { METRICS_TOKEN: TOKEN });
});

Deno.test("metrics - open sockets are counted", async () => {
  await withApp(async (t) => {
    const company = await createCompany(t, "Soquete");
    const server = serve(t);
    const socket = await TestSocket.connect(server.wsUrl, company.user.token);
    try {
      assert.equal(value(await scrape(t), "balcao_open_sockets"), 1);
    } finally {
      await socket.close();
      await server.close();
    }
  }, { METRICS_TOKEN: TOKEN });
});

Deno.test("version - public: the release and the migration level", async () => {
  await withApp(async (t) => {
    const res = await t.request("GET", "/api/version");
    assert.equal(res.status, 200);
    const known = knownMigrations();
    assert.deepEqual(await res.json(), {
      version: "1.0.0",
      migration: known.at(-1),
      migrations: { applied: known.length, known: known.length, pending: [] },
    });
  });
});
