import assert from "node:assert/strict";
import { createTestApp, twoCompanies } from "../helpers/app.ts";
import { connectSimulator, sentBy } from "../whatsapp/helpers.ts";
import { dispatchTick } from "../../server/campaigns/dispatcher.ts";
import { checkPendingNumbers } from "../../server/campaigns/number_check.ts";
import type { Provider } from "../../server/whatsapp/providers/provider.ts";
import { createCampaign, saveSettings, seedList } from "../campaigns/helpers.ts";

Deno.test("file lists - CRUD, multi-file upload under our names, isolation, sent with a campaign", async (t) => {
  const app = await createTestApp();
  try {
    const { a, b } = await twoCompanies(app);
    const token = a.admin.token;
    let listId = 0;

    await t.step("name at least 3 ('nome muito curto'), message required", async () => {
      const short = await app.request("POST", "/api/files", {
        token,
        body: { name: "ab", message: "x" },
      });
      assert.equal(short.status, 400);
      assert.deepEqual((await short.json()).fields.name, ["Nome muito curto"]);
      const noMessage = await app.request("POST", "/api/files", {
        token,
        body: { name: "Catálogo", message: "" },
      });
      assert.deepEqual((await noMessage.json()).fields.message, ["Obrigatório"]);
      const res = await app.request("POST", "/api/files", {
        token,
        body: { name: "Catálogo", message: "Veja nosso catálogo" },
      });
      assert.equal(res.status, 201);
      listId = (await res.json()).id;
    });

    await t.step("several files upload; stored names are ours, not the uploader's", async () => {
      const form = new FormData();
      form.append(
        "files",
        new File(["%PDF-1.4 a"], "../../etc/passwd.pdf", { type: "application/pdf" }),
      );
      form.append("name", "Tabela de preços");
      form.append("files", new File(["PNGDATA"], "foto.png", { type: "image/png" }));
      form.append("name", "Foto");
      form.append("typeArch", "../../evil");
      const res = await app.request("POST", `/api/files/uploadList/${listId}`, {
        token,
        body: form,
      });
      assert.equal(res.status, 200, await res.clone().text());
      const view = await res.json();
      assert.deepEqual(view.options.map((o: { name: string }) => o.name), [
        "Tabela de preços",
        "Foto",
      ]);
      for (const o of view.options) {
        assert.match(o.path, new RegExp(`^${a.id}/[0-9a-f-]{36}\\.(pdf|png)$`));
      }
      const file = await app.request("GET", view.options[1].file, { token });
      assert.equal(file.status, 200);
      assert.equal(await file.text(), "PNGDATA");
      const page = await (await app.request("GET", "/api/files?searchParam=cat", { token })).json();
      assert.equal(page.files.length, 1);
      assert.equal(page.hasMore, false);
    });

    await t.step("another company can neither read, change, upload to nor delete it", async () => {
      const form = new FormData();
      form.append("files", new File(["x"], "x.txt"));
      for (
        const [method, path, body] of [
          ["GET", `/api/files/${listId}`],
          ["PUT", `/api/files/${listId}`, { name: "Roubado" }],
          ["DELETE", `/api/files/${listId}`],
          ["POST", `/api/files/uploadList/${listId}`, form],
          ["GET", `/api/files/${listId}/options/1`],
        ] as const
      ) {
        const res = await app.request(method, path, { token: b.admin.token, body });
        assert.equal(res.status, 404, `${method} ${path}`);
        assert.equal((await res.json()).error, "ERR_NO_FILE_LIST_FOUND");
      }
      assert.deepEqual(
        (await (await app.request("GET", "/api/files", { token: b.admin.token }))
          .json()).files,
        [],
      );
    });

    await t.step(
      "a campaign with the file list sends its message, then the files, once",
      async () => {
        const wid = await connectSimulator(app, a);
        await saveSettings(app, a, {
          messageInterval: 0,
          longerIntervalAfter: 0,
          greaterInterval: 0,
        });
        const contactListId = await seedList(app, a, 1);
        const c = await createCampaign(app, a, {
          whatsappId: wid,
          contactListId,
          fileListId: listId,
          message1: "Oi {nome}",
          scheduledAt: app.clock.now().toISOString(),
        });
        // The phone network hiccups, so the message waits for a retry and its files behind it;
        // a cancel then withdraws all three, and the restart sends them once.
        await checkPendingNumbers(app.deps);
        const provider = app.deps.sessions.connectedProvider(wid) as Provider;
        provider.sendText = () => Promise.reject(new Error("socket hiccup"));
        await dispatchTick(app.deps);
        await app.deps.sessions.outbox.idle();
        await app.request("POST", `/api/campaigns/${c.id}/cancel`, { token });
        const withdrawn = await app.deps.db.selectFrom("outbox").select("status")
          .where("whatsappId", "=", wid).execute();
        assert.deepEqual(withdrawn.map((o) => o.status), ["cancelled", "cancelled", "cancelled"]);
        delete (provider as Partial<Provider>).sendText; // the class's own method again
        await app.request("POST", `/api/campaigns/${c.id}/restart`, { token });
        for (let i = 0; i < 5; i++) {
          await dispatchTick(app.deps);
          await app.deps.sessions.outbox.idle();
        }
        const sent = await sentBy(app, token, wid);
        assert.deepEqual(sent.map((s) => [s.body, s.media?.mimetype ?? null]), [
          ["Oi Pessoa 0", null],
          ["Veja nosso catálogo", "application/pdf"],
          ["", "image/png"],
        ]);
        const view = await (await app.request("GET", `/api/campaigns/${c.id}`, { token })).json();
        assert.equal(view.status, "FINALIZADA");
      },
    );

    await t.step("an option left out of a PUT is removed with its file", async () => {
      const view = await (await app.request("GET", `/api/files/${listId}`, { token })).json();
      const keep = view.options[0];
      const res = await app.request("PUT", `/api/files/${listId}`, {
        token,
        body: { options: [{ id: keep.id, name: "Preços" }] },
      });
      const updated = await res.json();
      assert.deepEqual(updated.options.map((o: { name: string }) => o.name), ["Preços"]);
      const gone = await app.request("GET", view.options[1].file, { token });
      assert.equal(gone.status, 404);
    });
  } finally {
    await app.close();
  }
});
