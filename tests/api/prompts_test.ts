import assert from "node:assert/strict";
import { createCompany, twoCompanies, withApp } from "../helpers/app.ts";
import { sockets, withServedApp } from "../helpers/admin_fixtures.ts";

const KEY = "sk-test-1234567890abcdefghijklmnop";

Deno.test("prompts - 'Informe o setor', keys masked and sealed, isolation, admins and the plan flag", () =>
  withApp(async (t) => {
    const { a, b } = await twoCompanies(t);
    const queue = (await (await t.request("POST", "/api/queue", {
      token: a.admin.token,
      body: { name: "Suporte", color: "#00aa00" },
    })).json()).id;
    const bQueue = (await (await t.request("POST", "/api/queue", {
      token: b.admin.token,
      body: { name: "Fila B", color: "#00bb00" },
    })).json()).id;
    await withServedApp(t, async (wsUrl) => {
      const [sa, sb] = await sockets(wsUrl, a.user.token, b.admin.token);
      const base = { name: "Assistente", apiKey: KEY, prompt: "Você atende a loja." };
      const noQueue = await t.request("POST", "/api/prompt", { token: a.admin.token, body: base });
      assert.equal(noQueue.status, 400);
      const noQueueBody = await noQueue.json();
      assert.deepEqual([noQueueBody.error, noQueueBody.message], [
        "ERR_PROMPT_QUEUE_REQUIRED",
        "Informe o setor",
      ]);
      const foreignQueue = await t.request("POST", "/api/prompt", {
        token: a.admin.token,
        body: { ...base, queueId: bQueue },
      });
      assert.equal(foreignQueue.status, 404);
      const noKey = await t.request("POST", "/api/prompt", {
        token: a.admin.token,
        body: { ...base, apiKey: "", queueId: queue },
      });
      assert.deepEqual((await noKey.json()).fields, { apiKey: ["Obrigatório"] });
      const byUser = await t.request("POST", "/api/prompt", {
        token: a.user.token,
        body: { ...base, queueId: queue },
      });
      assert.equal(byUser.status, 403);

      const res = await t.request("POST", "/api/prompt", {
        token: a.admin.token,
        body: {
          ...base,
          queueId: queue,
          voice: "pt-BR-FranciscaNeural",
          voiceKey: "azure-key-xyz-1234",
          voiceRegion: "brazilsouth",
        },
      });
      assert.equal(res.status, 201, await res.clone().text());
      const created = await res.json();
      // seeds/002 section 9 defaults; the queue named; keys masked everywhere.
      assert.deepEqual(
        [created.temperature, created.maxTokens, created.maxMessages, created.queue.name],
        [1, 100, 10, "Suporte"],
      );
      assert.equal(created.apiKey, "••••••••mnop");
      const event = await sa.next((e) => e.event === `company-${a.id}-prompt`);
      const texts = [
        JSON.stringify(created),
        JSON.stringify(event.data),
        await (await t.request("GET", "/api/prompt", { token: a.user.token })).text(),
        await (await t.request("GET", `/api/prompt/${created.id}`, { token: a.admin.token }))
          .text(),
      ];
      for (const text of texts) {
        assert.equal(text.includes(KEY), false);
        assert.equal(text.includes("azure-key-xyz-1234"), false);
      }
      const row = await t.deps.db.selectFrom("prompts").selectAll().where("id", "=", created.id)
        .executeTakeFirstOrThrow();
      assert.equal(row.apiKey.includes(KEY), false);
      assert.match(row.apiKey, /^v1:/);

      // Sending the mask back keeps the key; other fields change.
      const updated = await (await t.request("PUT", `/api/prompt/${created.id}`, {
        token: a.admin.token,
        body: { ...base, apiKey: created.apiKey, maxMessages: 4, queueId: queue },
      })).json();
      assert.deepEqual([updated.maxMessages, updated.apiKey], [4, "••••••••mnop"]);
      const kept = await t.deps.db.selectFrom("prompts").select("apiKey")
        .where("id", "=", created.id).executeTakeFirstOrThrow();
      assert.equal(kept.apiKey, row.apiKey);

      // Company B reads, changes, deletes and hears nothing of A's.
      for (
        const [method, body] of [["GET", undefined], ["PUT", { ...base, queueId: bQueue }], [
          "DELETE",
          undefined,
        ]] as const
      ) {
        const other = await t.request(method, `/api/prompt/${created.id}`, {
          token: b.admin.token,
          body,
        });
        assert.equal(other.status, 404, method);
        assert.equal((await other.json()).error, "ERR_NO_PROMPT_FOUND");
      }
      assert.deepEqual(
        (await (await t.request("GET", "/api/prompt", { token: b.admin.token })).json()).prompts,
        [],
      );

      const deleted = await t.request("DELETE", `/api/prompt/${created.id}`, {
        token: a.admin.token,
      });
      assert.deepEqual(await deleted.json(), { message: "prompts.toasts.deleted" });
      await sa.next((e) =>
        e.event === `company-${a.id}-prompt` && (e.data as { action: string }).action === "delete"
      );
      await sb.settle();
      assert.equal(sb.events.some((e) => e.event.endsWith("-prompt")), false);
    });
    const noPlan = await createCompany(t, "Gamma", { plan: { useOpenAi: 0 } });
    const refused = await t.request("GET", "/api/prompt", { token: noPlan.admin.token });
    assert.equal(refused.status, 403);
    assert.equal((await refused.json()).error, "ERR_PLAN_FEATURE_DISABLED");
  }));
