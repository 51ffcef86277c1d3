import assert from "node:assert/strict";
import { createUser, twoCompanies, withApp } from "../helpers/app.ts";

Deno.test("quick messages - the list has the company's general answers and the user's own", () =>
  withApp(async (t) => {
    const { a } = await twoCompanies(t);
    const colleague = await createUser(t, a.id, { name: "Carla", email: "carla@alpha.test" });
    const missing = await t.request("POST", "/api/quick-messages", {
      token: a.user.token,
      body: { message: "sem atalho" },
    });
    assert.equal(missing.status, 400);
    assert.deepEqual((await missing.json()).fields, { shortcode: ["Obrigatório"] });

    const post = (token: string, body: Record<string, unknown>) =>
      t.request("POST", "/api/quick-messages", { token, body }).then((r) => r.json());
    const general = await post(a.admin.token, {
      shortcode: "ola",
      message: "Olá {{name}}!",
      geral: true,
    });
    const mine = await post(a.user.token, { shortcode: "pix", message: "Chave PIX: 123" });
    const theirs = await post(colleague.token, { shortcode: "tchau", message: "Até logo" });
    assert.equal(mine.userId, a.user.id);
    assert.equal(mine.geral, false);

    const list = await (await t.request("GET", `/api/quick-messages/list?userId=${colleague.id}`, {
      token: a.user.token,
    })).json();
    assert.deepEqual(list.map((q: { shortcode: string }) => q.shortcode), ["ola", "pix"]);
    const page = await (await t.request("GET", "/api/quick-messages?searchParam=p", {
      token: a.user.token,
    })).json();
    assert.deepEqual(page.records.map((q: { id: number }) => q.id), [mine.id]);
    assert.equal(page.count, 1);
    assert.equal(page.hasMore, false);
    const adminPage = await (await t.request("GET", "/api/quick-messages", {
      token: a.admin.token,
    })).json();
    assert.equal(adminPage.count, 3);

    // Another user's private answer is invisible (404) and not changeable.
    const peek = await t.request("GET", `/api/quick-messages/${theirs.id}`, {
      token: a.user.token,
    });
    assert.equal(peek.status, 404);
    const editGeneral = await t.request("PUT", `/api/quick-messages/${general.id}`, {
      token: a.user.token,
      body: { message: "mudado" },
    });
    assert.equal(editGeneral.status, 403);
    const edit = await t.request("PUT", `/api/quick-messages/${mine.id}`, {
      token: a.user.token,
      body: { shortcode: "pix2", message: "Chave: 456" },
    });
    assert.equal(edit.status, 200);
    assert.equal((await edit.json()).shortcode, "pix2");
    const del = await t.request("DELETE", `/api/quick-messages/${mine.id}`, {
      token: a.user.token,
    });
    assert.equal(del.status, 204);
    const rows = await t.deps.db.selectFrom("quick_messages").select("shortcode")
      .orderBy("shortcode").execute();
    assert.deepEqual(rows.map((r) => r.shortcode), ["ola", "tchau"]);
  }));

Deno.test("quick messages - company B cannot read, change or delete A's answers", () =>
  withApp(async (t) => {
    const { a, b } = await twoCompanies(t);
    const general = await (await t.request("POST", "/api/quick-messages", {
      token: a.admin.token,
      body: { shortcode: "ola", message: "Olá", geral: true },
    })).json();
    for (
      const [method, body] of [["GET", undefined], ["PUT", { message: "x" }], [
        "DELETE",
        undefined,
      ]] as const
    ) {
      const res = await t.request(method, `/api/quick-messages/${general.id}`, {
        token: b.admin.token,
        body,
      });
      assert.equal(res.status, 404);
      assert.equal((await res.json()).error, "ERR_NO_QUICK_MESSAGE_FOUND");
    }
    const list = await (await t.request("GET", "/api/quick-messages/list", {
      token: b.admin.token,
    })).json();
    assert.deepEqual(list, []);
    const row = await t.deps.db.selectFrom("quick_messages").select("message")
      .executeTakeFirstOrThrow();
    assert.equal(row.message, "Olá");
  }));
