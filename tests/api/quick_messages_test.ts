import assert from "node:assert/strict";
import { createUser, twoCompanies, withApp } from "../helpers/app.ts";
import { sockets, withServedApp } from "../helpers/admin_fixtures.ts";

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

/** A multipart body with `file` (and any other text fields). */
function upload(
  name: string,
  type: string,
  bytes: Uint8Array<ArrayBuffer>,
  fields: Record<string, string> = {},
) {
  const form = new FormData();
  form.append("file", new File([bytes], name, { type }));
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  return form;
}

Deno.test("quick messages media - upload stores a random name, shows spaces as underscores, replaces and removes", () =>
  withApp(async (t) => {
    const { a, b } = await twoCompanies(t);
    const q = await (await t.request("POST", "/api/quick-messages", {
      token: a.user.token,
      body: { shortcode: "tabela", message: "Segue a tabela" },
    })).json();
    const pdf = new TextEncoder().encode("%PDF-1.4 tabela");
    const res = await t.request("POST", `/api/quick-messages/${q.id}/media-upload`, {
      token: a.user.token,
      body: upload("../../Tabela de preços.pdf", "application/pdf", pdf, {
        typeArch: "quickMessage",
      }),
    });
    assert.equal(res.status, 200);
    const view = await res.json();
    assert.deepEqual([view.isMedia, view.mediaName], [true, "Tabela_de_preços.pdf"]);
    const row = await t.deps.db.selectFrom("quick_messages").selectAll().where("id", "=", q.id)
      .executeTakeFirstOrThrow();
    // The stored key is the company's folder and a random name, never the client's.
    assert.match(row.mediaPath!, new RegExp(`^${a.id}/[0-9a-f-]{36}\\.pdf$`));
    const first = row.mediaPath!;
    const served = await t.request("GET", `/api/quick-messages/${q.id}/media`, {
      token: a.user.token,
    });
    assert.equal(served.status, 200);
    assert.deepEqual(new Uint8Array(await served.arrayBuffer()), pdf);

    // Another company: 404 for the upload, the removal and the file.
    for (
      const [method, path] of [
        ["POST", "media-upload"],
        ["DELETE", "media-upload"],
        ["GET", "media"],
      ] as const
    ) {
      const other = await t.request(method, `/api/quick-messages/${q.id}/${path}`, {
        token: b.admin.token,
        body: method === "POST" ? upload("x.pdf", "application/pdf", pdf) : undefined,
      });
      assert.equal(other.status, 404, `${method} ${path}`);
      assert.equal((await other.json()).error, "ERR_NO_QUICK_MESSAGE_FOUND");
    }

    // Bad input: a type outside the allow-list, an empty file, a path in typeArch, no file.
    const bad = [
      [upload("run.sh", "application/x-sh", pdf), 400, "ERR_INVALID_MEDIA"],
      [upload("page.html", "text/html", pdf), 400, "ERR_INVALID_MEDIA"],
      [upload("vazio.pdf", "application/pdf", new Uint8Array()), 400, "ERR_INVALID_MEDIA"],
      [upload("a.pdf", "application/pdf", pdf, { typeArch: "../../etc" }), 400, "ERR_VALIDATION"],
      [new FormData(), 400, "ERR_VALIDATION"],
    ] as const;
    for (const [body, status, code] of bad) {
      const refused = await t.request("POST", `/api/quick-messages/${q.id}/media-upload`, {
        token: a.user.token,
        body,
      });
      assert.equal(refused.status, status);
      assert.equal((await refused.json()).error, code);
    }
    const unchanged = await t.deps.db.selectFrom("quick_messages").selectAll()
      .where("id", "=", q.id).executeTakeFirstOrThrow();
    assert.equal(unchanged.mediaPath, first);

    // A new file replaces the old one on disk; the removal clears the row and the file.
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47]);
    await t.request("POST", `/api/quick-messages/${q.id}/media-upload`, {
      token: a.user.token,
      body: upload("logo.png", "image/png", png),
    });
    const replaced = await t.deps.db.selectFrom("quick_messages").selectAll()
      .where("id", "=", q.id).executeTakeFirstOrThrow();
    assert.equal(replaced.mediaName, "logo.png");
    await assert.rejects(Deno.stat(`${t.dir}/media/${first}`), Deno.errors.NotFound);
    const removed = await t.request("DELETE", `/api/quick-messages/${q.id}/media-upload`, {
      token: a.user.token,
    });
    assert.deepEqual([(await removed.json()).isMedia], [false]);
    await assert.rejects(Deno.stat(`${t.dir}/media/${replaced.mediaPath}`), Deno.errors.NotFound);
  }));

Deno.test("quick messages media - over MEDIA_MAX_BYTES is 413 and nothing is stored", () =>
  withApp(async (t) => {
    const { a } = await twoCompanies(t);
    const q = await (await t.request("POST", "/api/quick-messages", {
      token: a.user.token,
      body: { shortcode: "grande", message: "arquivo" },
    })).json();
    const res = await t.request("POST", `/api/quick-messages/${q.id}/media-upload`, {
      token: a.user.token,
      body: upload("grande.pdf", "application/pdf", new Uint8Array(4096)),
    });
    assert.equal(res.status, 413);
    assert.equal((await res.json()).error, "ERR_MEDIA_TOO_LARGE");
    const row = await t.deps.db.selectFrom("quick_messages").selectAll().executeTakeFirstOrThrow();
    assert.equal(row.mediaPath, null);
  }, { MEDIA_MAX_BYTES: "2048" }));

Deno.test("quick messages - live: a user's private answer reaches them and the admins only; delete carries the id", () =>
  withApp(async (t) => {
    const { a, b } = await twoCompanies(t);
    const colleague = await createUser(t, a.id, { name: "Carla", email: "carla@alpha.test" });
    await withServedApp(t, async (wsUrl) => {
      const [mine, admin, other, foreign] = await sockets(
        wsUrl,
        a.user.token,
        a.admin.token,
        colleague.token,
        b.admin.token,
      );
      const channel = `company-${a.id}-quickMessage`;
      const q = await (await t.request("POST", "/api/quick-messages", {
        token: a.user.token,
        body: { shortcode: "pix", message: "Chave" },
      })).json();
      for (const s of [mine, admin]) {
        const e = await s.next((e) => e.event === channel);
        assert.deepEqual(e.data, { action: "create", record: q });
      }
      await t.request("DELETE", `/api/quick-messages/${q.id}`, { token: a.user.token });
      const gone = await admin.next((e) =>
        e.event === channel && (e.data as { action: string }).action === "delete"
      );
      assert.deepEqual(gone.data, { action: "delete", id: q.id });
      await other.settle();
      assert.equal(other.events.filter((e) => e.event === channel).length, 0);
      assert.equal(foreign.events.filter((e) => e.event.endsWith("-quickMessage")).length, 0);
    });
  }));
