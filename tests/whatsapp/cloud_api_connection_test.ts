import assert from "node:assert/strict";
import { createCompany, withApp } from "../helpers/app.ts";
import { startFakeGraph } from "../fakes/graph.ts";
import { APP_SECRET, cloudBody, VERIFY_TOKEN, withCloud } from "./cloud_helpers.ts";

Deno.test("cloud api - a connection: secrets sealed at rest, the webhook URL answered, capabilities", async () => {
  await withCloud(async ({ t, graph, a, whatsappId, webhookUrl }) => {
    assert.match(webhookUrl, /^https:\/\/balcao\.example\/api\/whatsapp-cloud\/[0-9a-f]{48}$/);
    const view = await (await t.request("GET", `/api/whatsapp/${whatsappId}`, {
      token: a.admin.token,
    })).json();
    assert.equal(view.provider, "cloud_api");
    assert.equal(view.status, "CONNECTED");
    assert.equal(view.number, "551140001234");
    assert.equal(view.capabilities.templates, true);
    assert.equal(view.capabilities.qr, false);
    assert.deepEqual(view.cloud, {
      phoneNumberId: graph.phoneNumberId,
      businessAccountId: graph.businessAccountId,
      verifyToken: VERIFY_TOKEN,
      webhookUrl,
      hasAccessToken: true,
      hasAppSecret: true,
      displayNumber: "+55 11 4000-1234",
      verifiedName: "Loja Balcão",
      qualityRating: "GREEN",
      lastError: null,
    });
    // Secrets: sealed in the row, in no answer.
    const row = await t.deps.db.selectFrom("whatsapp_cloud").selectAll()
      .where("whatsappId", "=", whatsappId).executeTakeFirstOrThrow();
    assert.match(row.accessToken, /^v1:/);
    assert.match(row.appSecret, /^v1:/);
    const stored = JSON.stringify(row);
    assert.ok(!stored.includes(graph.token) && !stored.includes(APP_SECRET));
    assert.ok(!JSON.stringify(view).includes(graph.token));
    // A plain user sees the capabilities, not what to paste into Meta.
    const asUser = await (await t.request("GET", `/api/whatsapp/${whatsappId}`, {
      token: a.user.token,
    })).json();
    assert.equal(asUser.cloud, undefined);
    assert.equal(asUser.capabilities.window24h, true);
  });
});

Deno.test("cloud api - 'Testar' reads the number from the Graph API; errors in the catalogue's words", async () => {
  await withCloud(async ({ t, graph, a, whatsappId }) => {
    const res = await t.request("POST", `/api/whatsapp/${whatsappId}/test`, {
      token: a.admin.token,
    });
    assert.equal(res.status, 200);
    assert.deepEqual(await res.json(), {
      displayNumber: "+55 11 4000-1234",
      verifiedName: "Loja Balcão",
      qualityRating: "GREEN",
    });
    assert.ok(graph.requests.some((r) => r.path === `/v23.0/${graph.phoneNumberId}`));
    // Another company cannot test (or learn of) this connection.
    const b = await createCompany(t, "Beta");
    const foreign = await t.request("POST", `/api/whatsapp/${whatsappId}/test`, {
      token: b.admin.token,
    });
    assert.equal(foreign.status, 404);
    // A token Meta no longer accepts: 190 -> ERR_WHATSAPP_TOKEN_INVALID ('reautorizar').
    await t.deps.db.updateTable("whatsapp_cloud").set({ accessToken: "" })
      .where("whatsappId", "=", whatsappId).execute();
    const expired = await t.request("POST", `/api/whatsapp/${whatsappId}/test`, {
      token: a.admin.token,
    });
    // 422, not 401: a 401 would sign the admin's page out (islands/lib/api.ts).
    assert.equal(expired.status, 422);
    assert.equal((await expired.json()).error, "ERR_WHATSAPP_TOKEN_INVALID");
  });
});

Deno.test("cloud api - creation needs every credential; a wrong token leaves it DISCONNECTED", async () => {
  const graph = startFakeGraph();
  try {
    await withApp(async (t) => {
      const a = await createCompany(t, "Alpha");
      const { accessToken: _t, ...missing } = cloudBody(graph);
      const res = await t.request("POST", "/api/whatsapp", { token: a.admin.token, body: missing });
      assert.equal(res.status, 400);
      const body = await res.json();
      assert.equal(body.error, "ERR_VALIDATION");
      assert.ok(body.fields.accessToken);
      const wrong = await t.request("POST", "/api/whatsapp", {
        token: a.admin.token,
        body: { ...cloudBody(graph), accessToken: "EAAG-expired-token-000" },
      });
      assert.equal(wrong.status, 201);
      const created = await wrong.json();
      const row = await t.deps.db.selectFrom("whatsapp_cloud").select("lastError")
        .where("whatsappId", "=", created.id).executeTakeFirstOrThrow();
      assert.equal(row.lastError, "ERR_WHATSAPP_TOKEN_INVALID");
      const view = await (await t.request("GET", `/api/whatsapp/${created.id}`, {
        token: a.admin.token,
      })).json();
      assert.equal(view.status, "DISCONNECTED");
    }, { WHATSAPP_CLOUD_API_URL: graph.apiUrl });
  } finally {
    await graph.close();
  }
});

Deno.test("cloud api - 'Reautorizar': a token Meta refuses shows in the view; a new one typed in PUT reconnects", async () => {
  await withCloud(async ({ t, graph, a, whatsappId }) => {
    // Meta expires the token: 'Testar' says so and the view carries it for the dialog.
    graph.token = "EAAG-renewed-token-0987654321";
    const expired = await t.request("POST", `/api/whatsapp/${whatsappId}/test`, {
      token: a.admin.token,
    });
    assert.equal((await expired.json()).error, "ERR_WHATSAPP_TOKEN_INVALID");
    const before = await (await t.request("GET", `/api/whatsapp/${whatsappId}`, {
      token: a.admin.token,
    })).json();
    assert.equal(before.cloud.lastError, "ERR_WHATSAPP_TOKEN_INVALID");
    assert.equal(before.cloud.verifiedName, "Loja Balcão");

    // Another company cannot put its token on this connection.
    const b = await createCompany(t, "Beta");
    const foreign = await t.request("PUT", `/api/whatsapp/${whatsappId}`, {
      token: b.admin.token,
      body: { accessToken: graph.token },
    });
    assert.equal(foreign.status, 404);
    // A plain user cannot either.
    const asUser = await t.request("PUT", `/api/whatsapp/${whatsappId}`, {
      token: a.user.token,
      body: { accessToken: graph.token },
    });
    assert.equal(asUser.status, 403);

    // A blank secret keeps the stored one; the new token is sealed and the number read again.
    const res = await t.request("PUT", `/api/whatsapp/${whatsappId}`, {
      token: a.admin.token,
      body: { name: "Oficial", accessToken: graph.token, appSecret: "" },
    });
    assert.equal(res.status, 200);
    const row = await t.deps.db.selectFrom("whatsapp_cloud").selectAll()
      .where("whatsappId", "=", whatsappId).executeTakeFirstOrThrow();
    assert.match(row.accessToken, /^v1:/);
    assert.ok(!row.accessToken.includes(graph.token) && row.accessToken !== "");
    assert.notEqual(row.appSecret, "");
    const tested = await t.request("POST", `/api/whatsapp/${whatsappId}/test`, {
      token: a.admin.token,
    });
    assert.equal(tested.status, 200);
    const after = await (await t.request("GET", `/api/whatsapp/${whatsappId}`, {
      token: a.admin.token,
    })).json();
    assert.equal(after.cloud.lastError, null);
    assert.equal(after.status, "CONNECTED");
    const audit = await t.deps.db.selectFrom("audit_logs").selectAll()
      .where("companyId", "=", a.id).where("action", "=", "connection.updated").execute();
    assert.ok(audit.some((r) => String(r.after ?? "").includes("accessToken")));
    assert.ok(!audit.some((r) => JSON.stringify(r).includes(graph.token)));
  });
});
