import assert from "node:assert/strict";
import {
  createCompany,
  type TestApp,
  type TestCompany,
  twoCompanies,
  withApp,
} from "../helpers/app.ts";
import { eventually } from "../helpers/eventually.ts";
import { connectSimulator, phoneSends, sentBy } from "../whatsapp/helpers.ts";

/**
 * A connected simulator connection of the company and an API token, made for it as an admin
 * makes one (the answer that makes a token is the only one that carries it).
 */
async function apiConnection(t: TestApp, company: TestCompany) {
  const whatsappId = await connectSimulator(t, company);
  const res = await t.request("POST", `/api/whatsapp/${whatsappId}/token`, {
    token: company.admin.token,
  });
  const token = (await res.json()).token as string;
  assert.match(token, /^blc_[A-Za-z0-9_-]{43}$/);
  return { whatsappId, token };
}

function send(t: TestApp, token: string | undefined, body: unknown, headers = {}) {
  return t.request("POST", "/api/messages/send", { token, body, headers });
}

async function errorOf(res: Response, status: number): Promise<string> {
  const text = await res.text();
  assert.equal(res.status, status, text);
  return JSON.parse(text).error;
}

Deno.test("send API - a good token sends through the outbox on a new closed ticket", () =>
  withApp(async (t) => {
    const { a } = await twoCompanies(t);
    const { whatsappId, token } = await apiConnection(t, a);
    const res = await send(t, token, { number: "+55 (13) 91234-4321", body: "Seu pedido saiu" });
    assert.equal(res.status, 201, await res.clone().text());
    const answer = await res.json();
    assert.equal(answer.number, "5513912344321");
    assert.equal(answer.status, "queued");
    assert.deepEqual(answer.messageIds, [answer.messageId]);
    const sent = await eventually(async () => {
      const list = await sentBy(t, a.admin.token, whatsappId);
      return list.length === 1 ? list : undefined;
    });
    assert.equal(sent[0].body, "Seu pedido saiu");
    assert.equal(sent[0].to, "5513912344321");
    const ticket = await t.deps.db.selectFrom("tickets").selectAll()
      .where("id", "=", answer.ticketId).executeTakeFirstOrThrow();
    assert.equal(ticket.companyId, a.id);
    assert.equal(ticket.status, "closed");
    assert.equal(ticket.queueId, null);
    assert.equal(ticket.userId, null);
    const contact = await t.deps.db.selectFrom("contacts").selectAll()
      .where("id", "=", answer.contactId).executeTakeFirstOrThrow();
    assert.deepEqual([contact.companyId, contact.number], [a.id, "5513912344321"]);
  }));

Deno.test("send API - the contact's open ticket on the connection receives the message", () =>
  withApp(async (t) => {
    const { a } = await twoCompanies(t);
    const { whatsappId, token } = await apiConnection(t, a);
    const inbound = await phoneSends(t, a.admin.token, whatsappId, {
      from: "5511988887777",
      name: "Maria",
      body: "Oi",
    });
    const res = await send(t, token, { number: "5511988887777", body: "Olá Maria" });
    assert.equal(res.status, 201);
    const answer = await res.json();
    assert.equal(answer.ticketId, inbound.ticketId);
    const ticket = await t.deps.db.selectFrom("tickets").select(["status", "lastMessage"])
      .where("id", "=", answer.ticketId).executeTakeFirstOrThrow();
    assert.deepEqual(ticket, { status: "pending", lastMessage: "Olá Maria" });
  }));

Deno.test("send API - wrong, missing and deleted-connection tokens are refused; nothing is sent", () =>
  withApp(async (t) => {
    const { a } = await twoCompanies(t);
    // The first connection is the default, which cannot be deleted while others exist.
    const other = await connectSimulator(t, a);
    const { whatsappId, token } = await apiConnection(t, a);
    const body = { number: "5513912344321", body: "x" };
    assert.equal(await errorOf(await send(t, undefined, body), 401), "ERR_UNAUTHORIZED");
    assert.equal(await errorOf(await send(t, `${token}x`, body), 401), "ERR_UNAUTHORIZED");
    assert.equal(await errorOf(await send(t, "blc_guess", body), 401), "ERR_UNAUTHORIZED");
    // A user's access token is not a connection token.
    assert.equal(await errorOf(await send(t, a.admin.token, body), 401), "ERR_UNAUTHORIZED");
    const del = await t.request("DELETE", `/api/whatsapp/${whatsappId}`, {
      token: a.admin.token,
    });
    assert.equal(del.status, 200, await del.text());
    assert.equal(await errorOf(await send(t, token, body), 401), "ERR_UNAUTHORIZED");
    assert.equal((await sentBy(t, a.admin.token, other)).length, 0);
    const count = await t.deps.db.selectFrom("messages").select((e) => e.fn.countAll().as("n"))
      .executeTakeFirstOrThrow();
    assert.equal(Number(count.n), 0);
  }));

Deno.test("send API - each company's token sends only on its own connection", () =>
  withApp(async (t) => {
    const { a, b } = await twoCompanies(t);
    const ca = await apiConnection(t, a);
    const cb = await apiConnection(t, b);
    const res = await send(t, cb.token, { number: "5513912344321", body: "de B" });
    assert.equal(res.status, 201);
    const answer = await res.json();
    const message = await t.deps.db.selectFrom("messages").selectAll()
      .where("id", "=", answer.messageId).executeTakeFirstOrThrow();
    assert.deepEqual([message.companyId, message.whatsappId], [b.id, cb.whatsappId]);
    await eventually(async () => (await sentBy(t, b.admin.token, cb.whatsappId)).length === 1);
    assert.equal((await sentBy(t, a.admin.token, ca.whatsappId)).length, 0);
    // A's admin cannot read or regenerate B's token.
    const read = await t.request("GET", `/api/whatsapp/${cb.whatsappId}`, {
      token: a.admin.token,
    });
    assert.equal(read.status, 404);
    const regen = await t.request("POST", `/api/whatsapp/${cb.whatsappId}/token`, {
      token: a.admin.token,
    });
    assert.equal(regen.status, 404);
    // A user (not an admin) of B cannot regenerate it either, nor read it.
    const asUser = await t.request("POST", `/api/whatsapp/${cb.whatsappId}/token`, {
      token: b.user.token,
    });
    assert.equal(asUser.status, 403);
    const userView = await t.request("GET", `/api/whatsapp/${cb.whatsappId}`, {
      token: b.user.token,
    });
    const seen = await userView.json();
    assert.deepEqual([seen.token, seen.tokenHint], [undefined, undefined]);
  }));

Deno.test("send API - a regenerated token replaces the old one at once", () =>
  withApp(async (t) => {
    const { a } = await twoCompanies(t);
    const { whatsappId, token } = await apiConnection(t, a);
    const res = await t.request("POST", `/api/whatsapp/${whatsappId}/token`, {
      token: a.admin.token,
    });
    assert.equal(res.status, 200);
    const fresh = (await res.json()).token as string;
    assert.notEqual(fresh, token);
    const body = { number: "5513912344321", body: "x" };
    assert.equal(await errorOf(await send(t, token, body), 401), "ERR_UNAUTHORIZED");
    assert.equal((await send(t, fresh, body)).status, 201);
    // A token typed in the connection form is ignored.
    const put = await t.request("PUT", `/api/whatsapp/${whatsappId}`, {
      token: a.admin.token,
      body: { token: "123" },
    });
    const edited = await put.json();
    assert.deepEqual([edited.token, edited.tokenHint], [undefined, `blc_…${fresh.slice(-4)}`]);
  }));

Deno.test("send API - an Idempotency-Key makes a retry send once", () =>
  withApp(async (t) => {
    const { a } = await twoCompanies(t);
    const { whatsappId, token } = await apiConnection(t, a);
    const body = { number: "5513912344321", body: "Pedido 42 confirmado" };
    const headers = { "idempotency-key": "order-42" };
    const [first, second] = await Promise.all([
      send(t, token, body, headers),
      send(t, token, body, headers),
    ]);
    const third = await send(t, token, body, headers);
    const answers = [];
    for (const res of [first, second, third]) {
      assert.equal(res.status, 201, await res.clone().text());
      answers.push(await res.json());
    }
    assert.equal(answers[1].messageId, answers[0].messageId);
    assert.equal(answers[2].messageId, answers[0].messageId);
    assert.equal(third.headers.get("idempotent-replayed"), "true");
    const other = await send(t, token, { ...body, body: "outro" }, headers);
    assert.equal(await errorOf(other, 422), "ERR_IDEMPOTENCY_KEY_REUSED");
    await eventually(async () => (await sentBy(t, a.admin.token, whatsappId)).length >= 1);
    const rows = await t.deps.db.selectFrom("outbox").select("id").execute();
    assert.equal(rows.length, 1);
    // Without a key, a second request is a second message.
    assert.equal((await send(t, token, body)).status, 201);
    assert.equal((await t.deps.db.selectFrom("outbox").select("id").execute()).length, 2);
  }));

Deno.test("send API - bad input gets its code and sends nothing", () =>
  withApp(async (t) => {
    const { a } = await twoCompanies(t);
    const { token } = await apiConnection(t, a);
    const cases: [unknown, number, string][] = [
      [{ number: "abc", body: "x" }, 400, "ERR_INVALID_NUMBER"],
      [{ number: "123", body: "x" }, 400, "ERR_INVALID_NUMBER"],
      [{ number: "120363123456789012@g.us", body: "x" }, 400, "ERR_INVALID_NUMBER"],
      // A valid Saint Helena number; the simulator knows no WhatsApp account under 10 digits.
      [{ number: "+290 22158", body: "x" }, 400, "ERR_WAPP_INVALID_CONTACT"],
      [{ number: "5513912344321", body: "   " }, 400, "ERR_VALIDATION"],
      [{ body: "x" }, 400, "ERR_VALIDATION"],
      [{ number: "5513912344321", body: "x".repeat(70_000) }, 400, "ERR_VALIDATION"],
      [{ number: "5513912344321", body: "x".repeat(1_100_000) }, 413, "ERR_BODY_TOO_LARGE"],
      ["not json", 400, "ERR_VALIDATION"],
    ];
    for (const [body, status, code] of cases) {
      const res = typeof body === "string"
        ? await t.request("POST", "/api/messages/send", {
          token,
          body,
          headers: { "content-type": "application/json" },
        })
        : await send(t, token, body);
      assert.equal(await errorOf(res, status), code, JSON.stringify(body).slice(0, 60));
    }
    const badKey = await send(t, token, { number: "5513912344321", body: "x" }, {
      "idempotency-key": "",
    });
    assert.equal(await errorOf(badKey, 400), "ERR_VALIDATION");
    const count = await t.deps.db.selectFrom("messages").select("id").execute();
    assert.equal(count.length, 0);
  }));

Deno.test("send API - a disconnected connection and a plan without the flag are refused", () =>
  withApp(async (t) => {
    const { a } = await twoCompanies(t);
    const { whatsappId, token } = await apiConnection(t, a);
    const stop = await t.request("DELETE", `/api/whatsappsession/${whatsappId}`, {
      token: a.admin.token,
    });
    assert.equal(stop.status, 200, await stop.text());
    const body = { number: "5513912344321", body: "x" };
    assert.equal(await errorOf(await send(t, token, body), 400), "ERR_WAPP_NOT_INITIALIZED");

    const c = await createCompany(t, "Gamma", { plan: { useExternalApi: 0 } });
    const gamma = await apiConnection(t, c);
    assert.equal(
      await errorOf(await send(t, gamma.token, body), 403),
      "ERR_PLAN_FEATURE_DISABLED",
    );
    assert.equal((await sentBy(t, c.admin.token, gamma.whatsappId)).length, 0);
  }));

Deno.test("send API - files go as multipart, one message each, the text as the first caption", () =>
  withApp(async (t) => {
    const { a } = await twoCompanies(t);
    const { whatsappId, token } = await apiConnection(t, a);
    const form = new FormData();
    form.set("number", "5513912344321");
    form.set("body", "Segue a nota");
    form.append(
      "medias",
      new File([new Uint8Array([37, 80, 68, 70])], "nota.pdf", {
        type: "application/pdf",
      }),
    );
    form.append("medias", new File(["a;b\n1;2\n"], "itens.csv", { type: "text/csv" }));
    const res = await t.request("POST", "/api/messages/send", { token, body: form });
    assert.equal(res.status, 201, await res.clone().text());
    assert.equal((await res.json()).messageIds.length, 2);
    const sent = await eventually(async () => {
      const list = await sentBy(t, a.admin.token, whatsappId);
      return list.length === 2 ? list : undefined;
    });
    assert.deepEqual(sent.map((s) => [s.body, s.media?.filename]), [
      ["Segue a nota", "nota.pdf"],
      ["", "itens.csv"],
    ]);
    const exe = new FormData();
    exe.set("number", "5513912344321");
    exe.append("medias", new File(["MZ"], "x.exe", { type: "application/x-msdownload" }));
    const refused = await t.request("POST", "/api/messages/send", { token, body: exe });
    assert.equal(await errorOf(refused, 400), "ERR_INVALID_MEDIA");
  }));

Deno.test("send API - the per-token rate limit answers 429 with Retry-After", () =>
  withApp(async (t) => {
    const { a } = await twoCompanies(t);
    const one = await apiConnection(t, a);
    const two = await apiConnection(t, a);
    const body = { number: "5513912344321", body: "x" };
    assert.equal((await send(t, one.token, body)).status, 201);
    assert.equal((await send(t, one.token, body)).status, 201);
    const limited = await send(t, one.token, body);
    assert.equal(await errorOf(limited, 429), "ERR_RATE_LIMITED");
    assert.ok(Number(limited.headers.get("retry-after")) > 0);
    // Another token has its own allowance; a minute later the first has one again.
    assert.equal((await send(t, two.token, body)).status, 201);
    t.clock.advance(61_000);
    assert.equal((await send(t, one.token, body)).status, 201);
  }, { EXTERNAL_API_RATE_LIMIT: "2" }));

Deno.test("send API - the rate limit counts messages, not requests: a request with three files is three", () =>
  withApp(async (t) => {
    const { a } = await twoCompanies(t);
    const { whatsappId, token } = await apiConnection(t, a);
    const withFiles = (count: number) => {
      const form = new FormData();
      form.set("number", "5513912344321");
      for (let i = 0; i < count; i++) {
        form.append("medias", new File([`${i};x\n`], `lista${i}.csv`, { type: "text/csv" }));
      }
      return t.request("POST", "/api/messages/send", { token, body: form });
    };
    // More files than the whole allowance: refused whole, nothing sent.
    assert.equal(await errorOf(await withFiles(4), 429), "ERR_RATE_LIMITED");
    const three = await withFiles(3);
    assert.equal(three.status, 201, await three.clone().text());
    assert.equal((await three.json()).messageIds.length, 3);
    const limited = await send(t, token, { number: "5513912344321", body: "mais uma" });
    assert.equal(await errorOf(limited, 429), "ERR_RATE_LIMITED");
    assert.ok(Number(limited.headers.get("retry-after")) > 0);
    const sent = await eventually(async () => {
      const list = await sentBy(t, a.admin.token, whatsappId);
      return list.length === 3 ? list : undefined;
    });
    assert.deepEqual(sent.map((s) => s.media?.filename), [
      "lista0.csv",
      "lista1.csv",
      "lista2.csv",
    ]);
    t.clock.advance(61_000);
    assert.equal((await send(t, token, { number: "5513912344321", body: "ok" })).status, 201);
  }, { EXTERNAL_API_RATE_LIMIT: "3" }));
