import assert from "node:assert/strict";
import { createCompany, twoCompanies, withApp } from "../helpers/app.ts";
import { sockets, withServedApp } from "../helpers/admin_fixtures.ts";
import { fakeDialogflow } from "../fakes/dialogflow.ts";

/** A public address literal: the URL checks need no DNS here. */
const PUBLIC_URL = "https://93.184.215.14/webhook/balcao";

Deno.test("queue integrations - CRUD, the seeds' rules, isolation, admins and the plan flag", () =>
  withApp(async (t) => {
    const { a, b } = await twoCompanies(t);
    await withServedApp(t, async (wsUrl) => {
      const [sa, sb] = await sockets(wsUrl, a.admin.token, b.admin.token);
      const bad = await t.request("POST", "/api/queueIntegration", {
        token: a.admin.token,
        body: { type: "typebot", name: "x" },
      });
      assert.equal(bad.status, 400);
      assert.deepEqual((await bad.json()).fields, { name: ["Muito curto!"] });
      const noUrl = await t.request("POST", "/api/queueIntegration", {
        token: a.admin.token,
        body: { type: "typebot", name: "Atendimento" },
      });
      assert.deepEqual((await noUrl.json()).fields, {
        urlN8N: ["Obrigatório"],
        typebotSlug: ["Obrigatório"],
      });

      const created = await t.request("POST", "/api/queueIntegration", {
        token: a.admin.token,
        body: {
          type: "typebot",
          name: "Atendimento",
          projectName: "ignored",
          urlN8N: PUBLIC_URL,
          typebotSlug: "support",
        },
      });
      assert.equal(created.status, 201, await created.clone().text());
      const typebot = await created.json();
      // projectName is the name for n8n, webhook and typebot; typebot defaults of seeds/002.
      assert.deepEqual(
        [
          typebot.projectName,
          typebot.typebotExpires,
          typebot.typebotDelayMessage,
          typebot.language,
        ],
        ["Atendimento", 1, 1000, "pt-BR"],
      );
      assert.match(typebot.secret, /^[A-Za-z0-9_-]{40,}$/);
      const event = await sa.next((e) => e.event === `company-${a.id}-queueIntegration`);
      assert.equal((event.data as { action: string }).action, "create");
      assert.equal(JSON.stringify(event.data).includes(typebot.secret), false);

      const page = await (await t.request("GET", "/api/queueIntegration?searchParam=atend", {
        token: a.admin.token,
      })).json();
      assert.deepEqual([page.queueIntegrations.length, page.hasMore], [1, false]);
      assert.equal(page.queueIntegrations[0].secret, undefined);

      const updated = await (await t.request("PUT", `/api/queueIntegration/${typebot.id}`, {
        token: a.admin.token,
        body: { type: "typebot", name: "Vendas", urlN8N: PUBLIC_URL, typebotSlug: "sales" },
      })).json();
      assert.deepEqual([updated.name, updated.projectName, updated.typebotSlug], [
        "Vendas",
        "Vendas",
        "sales",
      ]);

      // Company B sees, changes, deletes and hears nothing of A's.
      const otherGet = await t.request("GET", `/api/queueIntegration/${typebot.id}`, {
        token: b.admin.token,
      });
      assert.equal(otherGet.status, 404);
      assert.equal((await otherGet.json()).error, "ERR_NO_INTEGRATION_FOUND");
      const otherPut = await t.request("PUT", `/api/queueIntegration/${typebot.id}`, {
        token: b.admin.token,
        body: { type: "webhook", name: "Hijack", urlN8N: PUBLIC_URL },
      });
      assert.equal(otherPut.status, 404);
      const otherDelete = await t.request("DELETE", `/api/queueIntegration/${typebot.id}`, {
        token: b.admin.token,
      });
      assert.equal(otherDelete.status, 404);
      const bList = await (await t.request("GET", "/api/queueIntegration", {
        token: b.admin.token,
      })).json();
      assert.equal(bList.queueIntegrations.length, 0);
      // A queue of B cannot bind A's integration.
      const bQueue = await t.request("POST", "/api/queue", {
        token: b.admin.token,
        body: { name: "Fila B", color: "#123456", integrationId: typebot.id },
      });
      assert.equal(bQueue.status, 404);
      assert.equal((await bQueue.json()).error, "ERR_NO_INTEGRATION_FOUND");
      const aQueue = await t.request("POST", "/api/queue", {
        token: a.admin.token,
        body: { name: "Fila A", color: "#654321", integrationId: typebot.id },
      });
      assert.equal(aQueue.status, 201, await aQueue.clone().text());

      // Users are not admins; a plan without useIntegrations is refused on the server.
      const asUser = await t.request("GET", "/api/queueIntegration", { token: a.user.token });
      assert.equal(asUser.status, 403);
      const noPlan = await createCompany(t, "Gamma", { plan: { useIntegrations: 0 } });
      const refused = await t.request("GET", "/api/queueIntegration", {
        token: noPlan.admin.token,
      });
      assert.equal(refused.status, 403);
      assert.equal((await refused.json()).error, "ERR_PLAN_FEATURE_DISABLED");

      const deleted = await t.request("DELETE", `/api/queueIntegration/${typebot.id}`, {
        token: a.admin.token,
      });
      assert.equal(deleted.status, 200);
      const queue = await t.deps.db.selectFrom("queues").select("integrationId")
        .where("companyId", "=", a.id).executeTakeFirstOrThrow();
      assert.equal(queue.integrationId, null);
      await sa.next((e) =>
        e.event === `company-${a.id}-queueIntegration` &&
        (e.data as { action: string }).action === "delete"
      );
      await sb.settle();
      assert.equal(sb.events.some((e) => e.event.endsWith("-queueIntegration")), false);
    });
  }));

Deno.test("queue integrations - URLs that are not http(s) or reach internal addresses are refused", () =>
  withApp(async (t) => {
    const a = await createCompany(t, "Alpha");
    for (
      const url of [
        "ftp://93.184.215.14/x",
        "javascript:alert(1)",
        "http://127.0.0.1:8080/hook",
        "http://localhost/hook",
        "http://10.0.0.5/hook",
        "http://169.254.169.254/latest/meta-data",
        "http://[::1]/hook",
        "http://[::ffff:127.0.0.1]/hook",
        "http://user:pw@93.184.215.14/hook",
      ]
    ) {
      const res = await t.request("POST", "/api/queueIntegration", {
        token: a.admin.token,
        body: { type: "n8n", name: "Fluxo", urlN8N: url },
      });
      assert.equal(res.status, 400, url);
      assert.equal((await res.json()).error, "ERR_INTEGRATION_URL", url);
    }
    assert.equal(
      (await t.deps.db.selectFrom("queue_integrations").selectAll().execute()).length,
      0,
    );
  }));

Deno.test("queue integrations - dialogflow: the service account is checked, sealed, never answered; testSession", async () => {
  const google = await fakeDialogflow();
  try {
    await withApp(async (t) => {
      const a = await createCompany(t, "Alpha");
      const malformed = await t.request("POST", "/api/queueIntegration", {
        token: a.admin.token,
        body: { type: "dialogflow", name: "Agente", jsonContent: "{not json" },
      });
      assert.equal(malformed.status, 400);
      assert.equal((await malformed.json()).error, "ERR_INVALID_SERVICE_ACCOUNT");
      const noKey = await t.request("POST", "/api/queueIntegration/testSession", {
        token: a.admin.token,
        body: { jsonContent: JSON.stringify({ project_id: "x", client_email: "a@b" }) },
      });
      assert.equal((await noKey.json()).error, "ERR_INVALID_SERVICE_ACCOUNT");

      const json = JSON.stringify(google.account);
      const res = await t.request("POST", "/api/queueIntegration", {
        token: a.admin.token,
        body: { type: "dialogflow", name: "Agente", jsonContent: json, language: "es" },
      });
      assert.equal(res.status, 201, await res.clone().text());
      const created = await res.json();
      const text = JSON.stringify(created);
      assert.equal(text.includes("PRIVATE KEY"), false);
      assert.deepEqual(
        [created.projectName, created.hasJsonContent, created.serviceAccountEmail],
        ["balcao-test", true, google.account.client_email],
      );
      const stored = await t.deps.db.selectFrom("queue_integrations").select("jsonContent")
        .where("id", "=", created.id).executeTakeFirstOrThrow();
      assert.equal(stored.jsonContent.includes("PRIVATE KEY"), false);
      assert.match(stored.jsonContent, /^v1:/);
      const shown = await (await t.request("GET", `/api/queueIntegration/${created.id}`, {
        token: a.admin.token,
      })).json();
      assert.equal(JSON.stringify(shown).includes("PRIVATE KEY"), false);

      const tested = await t.request("POST", "/api/queueIntegration/testSession", {
        token: a.admin.token,
        body: { projectName: "balcao-test", jsonContent: json, language: "pt-BR" },
      });
      assert.equal(tested.status, 200, await tested.clone().text());
      assert.deepEqual(await tested.json(), {
        ok: true,
        intent: "Default Welcome Intent",
        replies: ["Olá! Em que posso ajudar?"],
      });
      // Another company cannot test with this company's stored account.
      const b = await createCompany(t, "Beta");
      const foreign = await t.request("POST", "/api/queueIntegration/testSession", {
        token: b.admin.token,
        body: { id: created.id },
      });
      assert.equal(foreign.status, 404);
      assert.equal((await foreign.json()).error, "ERR_NO_INTEGRATION_FOUND");
      // The stored account, by id; a wrong project fails with its code.
      const wrong = await t.request("POST", "/api/queueIntegration/testSession", {
        token: a.admin.token,
        body: { id: created.id, projectName: "someone-else" },
      });
      assert.equal(wrong.status, 400);
      assert.equal((await wrong.json()).error, "ERR_INTEGRATION_TEST_FAILED");
    }, { INTEGRATIONS_ALLOW_PRIVATE_URLS: "true", DIALOGFLOW_API_URL: google.url });
  } finally {
    await google.close();
  }
});
