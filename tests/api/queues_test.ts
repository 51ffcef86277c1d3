import assert from "node:assert/strict";
import { QUEUE_COLORS } from "../../contract/palette.ts";
import { defaultWorkingHours } from "../../server/queues/hours.ts";
import { createCompany, type TestApp, twoCompanies, withApp } from "../helpers/app.ts";
import { insertTicket, sockets, withServedApp } from "../helpers/admin_fixtures.ts";

async function createQueue(t: TestApp, token: string, body: Record<string, unknown>) {
  return await t.request("POST", "/api/queue", { token, body });
}

const week = [
  { weekday: "Segunda-feira", weekdayEn: "monday", startTime: "09:00", endTime: "17:30" },
  { weekday: "Domingo", weekdayEn: "sunday", startTime: "00:00", endTime: "00:00" },
];

Deno.test("queues palette - 50 distinct preset colours, each accepted by the queue rules", () =>
  withApp(async (t) => {
    assert.equal(QUEUE_COLORS.length, 50);
    assert.equal(new Set(QUEUE_COLORS).size, 50);
    const company = await createCompany(t, "Palette", { plan: { queues: 60 } });
    for (const [i, color] of QUEUE_COLORS.entries()) {
      const res = await createQueue(t, company.admin.token, { name: `Fila ${i}`, color });
      assert.equal(res.status, 201, color);
    }
  }));

Deno.test("queues create - default working hours, the company hears it, another company does not", () =>
  withApp(async (t) => {
    const { a, b } = await twoCompanies(t);
    await withServedApp(t, async (wsUrl) => {
      const [sa, sb] = await sockets(wsUrl, a.user.token, b.admin.token);
      const res = await createQueue(t, a.admin.token, {
        name: "Vendas",
        color: "#f44336",
        greetingMessage: "Olá!",
        outOfHoursMessage: "Estamos fechados",
        orderQueue: 1,
      });
      assert.equal(res.status, 201);
      const queue = await res.json();
      assert.deepEqual({ ...queue, id: 0, createdAt: "", updatedAt: "" }, {
        id: 0,
        name: "Vendas",
        color: "#F44336",
        greetingMessage: "Olá!",
        outOfHoursMessage: "Estamos fechados",
        orderQueue: 1,
        integrationId: null,
        promptId: null,
        schedules: defaultWorkingHours(),
        mediaName: null,
        mediaUrl: null,
        companyId: a.id,
        distribution: "off",
        firstResponseMinutes: null,
        resolutionMinutes: null,
        pauseWhenWaitingOnCustomer: false,
        createdAt: "",
        updatedAt: "",
      });
      const row = await t.deps.db.selectFrom("queues").selectAll().where("id", "=", queue.id)
        .executeTakeFirstOrThrow();
      assert.deepEqual(JSON.parse(row.schedules), defaultWorkingHours());
      const ev = await sa.next((e) => e.event === `company-${a.id}-queue`);
      assert.deepEqual(ev.data, { action: "create", queue });
      await sb.settle();
      assert.equal(sb.events.filter((e) => e.event.endsWith("-queue")).length, 0);
    });
  }));

Deno.test("queues create - validation of name, colour and hours", () =>
  withApp(async (t) => {
    const { a } = await twoCompanies(t);
    const cases: [Record<string, unknown>, string, string][] = [
      [{ name: "V", color: "#FFFFFF" }, "name", "Muito curto!"],
      [{ name: "x".repeat(51), color: "#FFFFFF" }, "name", "Muito longo!"],
      [{ name: "Vendas" }, "color", "Obrigatório"],
      [{ name: "Vendas", color: "#1" }, "color", "Muito curto!"],
      [{ name: "Vendas", color: "#1234567890" }, "color", "Muito longo!"],
      [{ name: "Vendas", color: "red" }, "color", "Cor inválida: use #RGB ou #RRGGBB"],
      [{ name: "Vendas", color: "#GGGGGG" }, "color", "Cor inválida: use #RGB ou #RRGGBB"],
      [
        { name: "Vendas", color: "#FFF", schedules: [{ ...week[0], startTime: "25:00" }] },
        "schedules.0.startTime",
        "Invalid time (HH:MM)",
      ],
      [
        { name: "Vendas", color: "#FFF", schedules: [{ ...week[0], endTime: "8:00" }] },
        "schedules.0.endTime",
        "Invalid time (HH:MM)",
      ],
      [
        {
          name: "Vendas",
          color: "#FFF",
          schedules: [{ ...week[0], startTime: "18:00", endTime: "08:00" }],
        },
        "schedules.0.endTime",
        "startTime must not be after endTime",
      ],
      [
        { name: "Vendas", color: "#FFF", schedules: [{ ...week[0], weekdayEn: "funday" }] },
        "schedules.0.weekdayEn",
        "Invalid weekday",
      ],
      [
        { name: "Vendas", color: "#FFF", schedules: [week[0], week[0]] },
        "schedules",
        "A weekday appears more than once",
      ],
    ];
    for (const [body, field, message] of cases) {
      const res = await createQueue(t, a.admin.token, body);
      assert.equal(res.status, 400, JSON.stringify(body));
      const answer = await res.json();
      assert.equal(answer.error, "ERR_VALIDATION");
      assert.deepEqual(answer.fields[field], [message], JSON.stringify(answer.fields));
    }
    const count = await t.deps.db.selectFrom("queues").select((eb) => eb.fn.countAll().as("n"))
      .executeTakeFirstOrThrow();
    assert.equal(Number(count.n), 0);
    const ok = await createQueue(t, a.admin.token, {
      name: "Vendas",
      color: "#fff",
      schedules: week,
    });
    assert.equal(ok.status, 201);
    assert.deepEqual((await ok.json()).schedules, week);
  }));

Deno.test("queues - a colour or name used by another queue of the company is refused", () =>
  withApp(async (t) => {
    const { a, b } = await twoCompanies(t);
    const first = await (await createQueue(t, a.admin.token, { name: "Vendas", color: "#F44336" }))
      .json();
    const sameColor = await createQueue(t, a.admin.token, { name: "Suporte", color: "#f44336" });
    assert.equal(sameColor.status, 409);
    assert.equal((await sameColor.json()).error, "ERR_QUEUE_COLOR_ALREADY_EXISTS");
    const sameName = await createQueue(t, a.admin.token, { name: "vendas", color: "#2196F3" });
    assert.equal(sameName.status, 409);
    assert.equal((await sameName.json()).error, "ERR_DUPLICATED_NAME");
    // another company may use both
    const other = await createQueue(t, b.admin.token, { name: "Vendas", color: "#F44336" });
    assert.equal(other.status, 201);
    const second =
      await (await createQueue(t, a.admin.token, { name: "Suporte", color: "#2196F3" }))
        .json();
    const clash = await t.request("PUT", `/api/queue/${second.id}`, {
      token: a.admin.token,
      body: { color: "#F44336" },
    });
    assert.equal(clash.status, 409);
    assert.equal((await clash.json()).error, "ERR_QUEUE_COLOR_ALREADY_EXISTS");
    // keeping its own colour is fine
    const same = await t.request("PUT", `/api/queue/${first.id}`, {
      token: a.admin.token,
      body: { name: "Vendas", color: "#F44336", greetingMessage: "Oi" },
    });
    assert.equal(same.status, 200);
  }));

Deno.test("queues - the plan's queue limit is ERR_PLAN_LIMIT", () =>
  withApp(async (t) => {
    const small = await createCompany(t, "Small", { plan: { queues: 1 } });
    assert.equal(
      (await createQueue(t, small.admin.token, { name: "Uma", color: "#FFF" })).status,
      201,
    );
    const res = await createQueue(t, small.admin.token, { name: "Duas", color: "#000" });
    assert.equal(res.status, 403);
    assert.equal((await res.json()).error, "ERR_PLAN_LIMIT");
  }));

Deno.test("queues - users read, only admins change", () =>
  withApp(async (t) => {
    const { a } = await twoCompanies(t);
    const queue = await (await createQueue(t, a.admin.token, { name: "Vendas", color: "#FFF" }))
      .json();
    const list = await t.request("GET", "/api/queue", { token: a.user.token });
    assert.equal(list.status, 200);
    assert.deepEqual((await list.json()).map((q: { id: number }) => q.id), [queue.id]);
    assert.equal(
      (await t.request("GET", `/api/queue/${queue.id}`, { token: a.user.token })).status,
      200,
    );
    for (
      const [method, path, body] of [
        ["POST", "/api/queue", { name: "Nova", color: "#000" }],
        ["PUT", `/api/queue/${queue.id}`, { name: "Outra" }],
        ["DELETE", `/api/queue/${queue.id}`, undefined],
      ] as const
    ) {
      const res = await t.request(method, path, { token: a.user.token, body });
      assert.equal(res.status, 403, `${method} ${path}`);
    }
  }));

Deno.test("queues update - hours and messages change; fields left out stay", () =>
  withApp(async (t) => {
    const { a } = await twoCompanies(t);
    const queue = await (await createQueue(t, a.admin.token, {
      name: "Vendas",
      color: "#FFF",
      greetingMessage: "Oi",
    })).json();
    // The prompt a queue binds must be the company's own (404 ERR_NO_PROMPT_FOUND otherwise).
    const missing = await t.request("PUT", `/api/queue/${queue.id}`, {
      token: a.admin.token,
      body: { promptId: 999 },
    });
    assert.equal(missing.status, 404);
    assert.equal((await missing.json()).error, "ERR_NO_PROMPT_FOUND");
    const stamp = t.clock.now().toISOString();
    const prompt = await t.deps.db.insertInto("prompts").values({
      companyId: a.id,
      name: "Assistente",
      apiKey: "",
      prompt: "Você é um assistente.",
      voice: "texto",
      voiceKey: "",
      voiceRegion: "",
      temperature: 1,
      maxTokens: 100,
      maxMessages: 10,
      queueId: queue.id,
      createdAt: stamp,
      updatedAt: stamp,
    }).returning("id").executeTakeFirstOrThrow();
    const res = await t.request("PUT", `/api/queue/${queue.id}`, {
      token: a.admin.token,
      body: { schedules: week, outOfHoursMessage: "Volte amanhã", promptId: prompt.id },
    });
    assert.equal(res.status, 200);
    const body = await res.json();
    assert.deepEqual(body.schedules, week);
    assert.equal(body.outOfHoursMessage, "Volte amanhã");
    assert.equal(body.greetingMessage, "Oi");
    assert.equal(body.promptId, prompt.id);
    const row = await t.deps.db.selectFrom("queues").selectAll().where("id", "=", queue.id)
      .executeTakeFirstOrThrow();
    assert.deepEqual(JSON.parse(row.schedules), week);
  }));

Deno.test("queues list - by orderQueue (unset last), then name", () =>
  withApp(async (t) => {
    const { a } = await twoCompanies(t);
    await createQueue(t, a.admin.token, { name: "Zeta", color: "#001" });
    await createQueue(t, a.admin.token, { name: "Beta", color: "#002", orderQueue: 2 });
    await createQueue(t, a.admin.token, { name: "Alfa", color: "#003" });
    await createQueue(t, a.admin.token, { name: "Gama", color: "#004", orderQueue: 1 });
    const list = await (await t.request("GET", "/api/queue", { token: a.user.token })).json();
    assert.deepEqual(list.map((q: { name: string }) => q.name), ["Gama", "Beta", "Alfa", "Zeta"]);
  }));

Deno.test("queues delete - removes options, keeps tickets without a queue, tells the lists", () =>
  withApp(async (t) => {
    const { a } = await twoCompanies(t);
    const queue = await (await createQueue(t, a.admin.token, { name: "Vendas", color: "#FFF" }))
      .json();
    await t.request("POST", "/api/queue-options", {
      token: a.admin.token,
      body: { title: "Orçamento", option: "1", queueId: queue.id },
    });
    const ticket = await insertTicket(t, a.id, { status: "pending", queueId: queue.id });
    await withServedApp(t, async (wsUrl) => {
      const [sa] = await sockets(wsUrl, a.admin.token);
      sa.send("joinTickets", "pending");
      await sa.settle();
      const res = await t.request("DELETE", `/api/queue/${queue.id}`, { token: a.admin.token });
      assert.equal(res.status, 204);
      const ev = await sa.next((e) => e.event === `company-${a.id}-queue`);
      assert.deepEqual(ev.data, { action: "delete", queueId: queue.id });
      const tev = await sa.next((e) => e.event === `company-${a.id}-ticket`);
      const data = tev.data as { ticket: { id: number; queueId: number | null } };
      assert.deepEqual([data.ticket.id, data.ticket.queueId], [ticket.id, null]);
    });
    assert.equal(
      (await t.deps.db.selectFrom("queue_options").selectAll().execute()).length,
      0,
    );
    const row = await t.deps.db.selectFrom("tickets").select(["queueId", "status"])
      .where("id", "=", ticket.id).executeTakeFirstOrThrow();
    assert.deepEqual(row, { queueId: null, status: "pending" });
    const again = await t.request("DELETE", `/api/queue/${queue.id}`, { token: a.admin.token });
    assert.equal(again.status, 404);
    assert.equal((await again.json()).error, "ERR_NO_QUEUE_FOUND");
  }));

Deno.test("queues media - upload stores a random name under the company folder; download and delete", () =>
  withApp(async (t) => {
    const { a, b } = await twoCompanies(t);
    const queue = await (await createQueue(t, a.admin.token, { name: "Vendas", color: "#FFF" }))
      .json();
    const form = new FormData();
    form.append(
      "file",
      new File(["%PDF-1.4 menu"], "../../cardápio.pdf", { type: "application/pdf" }),
    );
    const res = await t.request("POST", `/api/queue/${queue.id}/media-upload`, {
      token: a.admin.token,
      body: form,
    });
    assert.equal(res.status, 200);
    const body = await res.json();
    assert.equal(body.mediaName, "cardápio.pdf");
    assert.equal(body.mediaUrl, `/api/queue/${queue.id}/media`);
    const row = await t.deps.db.selectFrom("queues").select("mediaPath").where("id", "=", queue.id)
      .executeTakeFirstOrThrow();
    assert.match(row.mediaPath!, new RegExp(`^${a.id}/[0-9a-f-]{36}\\.pdf$`));
    assert.equal(await Deno.readTextFile(`${t.dir}/media/${row.mediaPath}`), "%PDF-1.4 menu");
    const download = await t.request("GET", body.mediaUrl, { token: a.user.token });
    assert.equal(download.status, 200);
    // A document is a download (issue 35): only pictures, audio and video are shown inline.
    assert.equal(download.headers.get("content-type"), "application/octet-stream");
    assert.equal(
      download.headers.get("content-disposition"),
      `attachment; filename*=UTF-8''${encodeURIComponent("cardápio.pdf")}`,
    );
    assert.equal(await download.text(), "%PDF-1.4 menu");
    const foreign = await t.request("GET", body.mediaUrl, { token: b.admin.token });
    assert.equal(foreign.status, 404);
    const foreignUpload = await t.request("POST", `/api/queue/${queue.id}/media-upload`, {
      token: b.admin.token,
      body: form,
    });
    assert.equal(foreignUpload.status, 404);
    const del = await t.request("DELETE", `/api/queue/${queue.id}/media-upload`, {
      token: a.admin.token,
    });
    assert.equal(del.status, 200);
    assert.equal((await del.json()).mediaName, null);
    await assert.rejects(Deno.stat(`${t.dir}/media/${row.mediaPath}`), Deno.errors.NotFound);
    const gone = await t.request("GET", body.mediaUrl, { token: a.user.token });
    assert.equal(gone.status, 404);
    assert.equal((await gone.json()).error, "ERR_NO_MEDIA_FOUND");
  }));

Deno.test("queues - company B cannot read, change or delete company A's queues", () =>
  withApp(async (t) => {
    const { a, b } = await twoCompanies(t);
    const queue = await (await createQueue(t, a.admin.token, { name: "Vendas", color: "#FFF" }))
      .json();
    for (
      const [method, body] of [["GET", undefined], ["PUT", { name: "Hacked" }], [
        "DELETE",
        undefined,
      ]] as const
    ) {
      const res = await t.request(method, `/api/queue/${queue.id}`, { token: b.admin.token, body });
      assert.equal(res.status, 404, method);
      assert.equal((await res.json()).error, "ERR_NO_QUEUE_FOUND");
    }
    assert.deepEqual(
      await (await t.request("GET", "/api/queue", { token: b.admin.token })).json(),
      [],
    );
    const row = await t.deps.db.selectFrom("queues").select("name").where("id", "=", queue.id)
      .executeTakeFirstOrThrow();
    assert.equal(row.name, "Vendas");
  }));
