import assert from "node:assert/strict";
import { type TestApp, type TestUser, twoCompanies, withApp } from "../helpers/app.ts";
import { TestSocket, withServer } from "../helpers/server.ts";
import type { AnnouncementView } from "../../contract/team_types.ts";
import { JPEG_BYTES, PNG_BYTES } from "../helpers/images.ts";

/** Company A's admin becomes a platform super user; B is any other company. */
async function platform(t: TestApp) {
  const { a, b } = await twoCompanies(t);
  await t.deps.db.updateTable("users").set({ super: 1 }).where("id", "=", a.admin.id).execute();
  return { a, b, root: a.admin };
}

async function publish(t: TestApp, root: TestUser, body: Record<string, unknown>) {
  const res = await t.request("POST", "/api/announcements", { token: root.token, body });
  assert.equal(res.status, 201, await res.clone().text());
  return await res.json() as AnnouncementView;
}

function upload(
  t: TestApp,
  token: string,
  id: number,
  bytes: Uint8Array<ArrayBuffer>,
  name: string,
) {
  const form = new FormData();
  form.append("file", new File([bytes], name));
  return t.request("POST", `/api/announcements/${id}/media-upload`, { token, body: form });
}

async function errorOf(res: Response) {
  return { status: res.status, error: (await res.json()).error };
}

const titles = (page: { records: AnnouncementView[] }) => page.records.map((r) => r.title);

Deno.test("announcements - super users manage them; every company's users read the active ones; nobody else writes", () =>
  withApp(async (t) => {
    const { a, b, root } = await platform(t);

    const empty = await t.request("POST", "/api/announcements", {
      token: root.token,
      body: { title: " ", priority: 4 },
    });
    assert.equal(empty.status, 400);
    assert.deepEqual((await empty.json()).fields, {
      title: ["Obrigatório"],
      text: ["Obrigatório"],
      priority: ["1 a 3"],
    });

    const notice = await publish(t, root, { title: "Manutenção", text: "Sábado às 22h" });
    assert.deepEqual(
      [notice.priority, notice.status, notice.mediaPath, notice.read],
      [3, true, null, false],
    );
    const draft = await publish(t, root, {
      title: "Rascunho",
      text: "Ainda não",
      priority: 1,
      status: false,
    });

    // Users of any company (and non-super admins) see only the active ones, and write nothing.
    for (const reader of [b.user, b.admin, a.user]) {
      const page = await (await t.request("GET", "/api/announcements?pageNumber=1", {
        token: reader.token,
      })).json();
      assert.deepEqual(titles(page), ["Manutenção"]);
      assert.equal(page.hasMore, false);
      const hidden = await t.request("GET", `/api/announcements/${draft.id}`, {
        token: reader.token,
      });
      assert.deepEqual(await errorOf(hidden), { status: 404, error: "ERR_NO_ANNOUNCEMENT_FOUND" });
      for (
        const [method, path, body] of [
          ["GET", "/api/announcements?all=true"],
          ["POST", "/api/announcements", { title: "x", text: "y" }],
          ["PUT", `/api/announcements/${notice.id}`, { title: "Hack" }],
          ["DELETE", `/api/announcements/${notice.id}`],
          ["DELETE", `/api/announcements/${notice.id}/media-upload`],
        ] as [string, string, unknown?][]
      ) {
        const res = await t.request(method, path, { token: reader.token, body });
        assert.deepEqual(await errorOf(res), { status: 403, error: "ERR_NO_PERMISSION" }, path);
      }
      const up = await upload(t, reader.token, notice.id, PNG_BYTES, "a.png");
      assert.deepEqual(await errorOf(up), { status: 403, error: "ERR_NO_PERMISSION" });
    }
    const unchanged = await t.deps.db.selectFrom("announcements").select("title")
      .orderBy("id").execute();
    assert.deepEqual(unchanged.map((r) => r.title), ["Manutenção", "Rascunho"]);

    // The super users' page: every announcement, searchable.
    const all = await (await t.request("GET", "/api/announcements?all=true", {
      token: root.token,
    })).json();
    assert.deepEqual(titles(all), ["Rascunho", "Manutenção"]);
    const found = await (await t.request("GET", "/api/announcements?all=true&searchParam=sábado", {
      token: root.token,
    })).json();
    assert.deepEqual(titles(found), ["Manutenção"]);

    const edited = await t.request("PUT", `/api/announcements/${draft.id}`, {
      token: root.token,
      body: { status: true, title: "Novidade" },
    });
    assert.equal(edited.status, 200);
    const bPage = await (await t.request("GET", "/api/announcements", { token: b.user.token }))
      .json();
    assert.deepEqual(titles(bPage), ["Novidade", "Manutenção"]);
    assert.equal(bPage.records[0].priority, 1);

    const del = await t.request("DELETE", `/api/announcements/${draft.id}`, { token: root.token });
    assert.equal(del.status, 204);
    const again = await t.request("DELETE", `/api/announcements/${draft.id}`, {
      token: root.token,
    });
    assert.deepEqual(await errorOf(again), { status: 404, error: "ERR_NO_ANNOUNCEMENT_FOUND" });
  }));

Deno.test("announcements - image: png, jpg, jpeg only (by name and bytes), stored under our name, read by other companies", () =>
  withApp(async (t) => {
    const { b, root } = await platform(t);
    const notice = await publish(t, root, { title: "Nova tela", text: "Veja" });

    for (
      const [bytes, name] of [
        [PNG_BYTES, "foto.gif"],
        [new TextEncoder().encode("<svg onload=alert(1)>"), "foto.png"],
        [PNG_BYTES, "foto.jpg.exe"],
        [new TextEncoder().encode("MZ executable"), "foto.jpeg"],
      ] as [Uint8Array<ArrayBuffer>, string][]
    ) {
      const res = await upload(t, root.token, notice.id, bytes, name);
      assert.deepEqual(await errorOf(res), { status: 400, error: "ERR_INVALID_MEDIA" }, name);
    }
    const missing = await t.request("POST", `/api/announcements/${notice.id}/media-upload`, {
      token: root.token,
      body: new FormData(),
    });
    assert.equal(missing.status, 400);
    const still = await t.deps.db.selectFrom("announcements").select("mediaPath")
      .executeTakeFirstOrThrow();
    assert.equal(still.mediaPath, null);

    const jpeg = await upload(t, root.token, notice.id, JPEG_BYTES, "../../etc/Foto Minha.JPEG");
    assert.equal(jpeg.status, 200);
    const first = await jpeg.json() as AnnouncementView;
    assert.match(first.mediaName ?? "", /^[0-9a-f-]{36}\.jpg$/);
    assert.equal(first.mediaPath, `${root.companyId}/${first.mediaName}`);

    const png = await upload(t, root.token, notice.id, PNG_BYTES, "logo.png");
    const second = await png.json() as AnnouncementView;
    assert.match(second.mediaName ?? "", /^[0-9a-f-]{36}\.png$/);
    // The replaced image is gone from the disk; the new one is there.
    await assert.rejects(Deno.stat(`${t.dir}/media/${first.mediaPath}`), Deno.errors.NotFound);
    assert.ok((await Deno.stat(`${t.dir}/media/${second.mediaPath}`)).isFile);

    // Another company's user reads the image of an active announcement.
    const image = await t.request("GET", `/api/announcements/${notice.id}/media`, {
      token: b.user.token,
    });
    assert.equal(image.status, 200);
    assert.equal(image.headers.get("content-type"), "image/png");
    assert.deepEqual(new Uint8Array(await image.arrayBuffer()), PNG_BYTES);

    await t.request("PUT", `/api/announcements/${notice.id}`, {
      token: root.token,
      body: { status: false },
    });
    const hidden = await t.request("GET", `/api/announcements/${notice.id}/media`, {
      token: b.user.token,
    });
    assert.deepEqual(await errorOf(hidden), { status: 404, error: "ERR_NO_ANNOUNCEMENT_FOUND" });

    const removed = await t.request("DELETE", `/api/announcements/${notice.id}/media-upload`, {
      token: root.token,
    });
    assert.equal((await removed.json()).mediaPath, null);
    await assert.rejects(Deno.stat(`${t.dir}/media/${second.mediaPath}`), Deno.errors.NotFound);
  }));

Deno.test("announcements - the bell's unread count is per user; marking read twice is harmless", () =>
  withApp(async (t) => {
    const { b, root } = await platform(t);
    const one = await publish(t, root, { title: "Um", text: "1" });
    const two = await publish(t, root, { title: "Dois", text: "2", priority: 2 });
    const unread = async (user: TestUser) => {
      const page = await (await t.request("GET", "/api/announcements", { token: user.token }))
        .json();
      return page.records.filter((r: AnnouncementView) => !r.read).map((r: AnnouncementView) =>
        r.id
      );
    };
    assert.deepEqual(await unread(b.user), [two.id, one.id]);
    for (let i = 0; i < 2; i++) {
      const read = await t.request("POST", "/api/announcements/read", {
        token: b.user.token,
        body: { ids: [one.id, two.id, 999] },
      });
      assert.equal(read.status, 204);
    }
    assert.deepEqual(await unread(b.user), []);
    assert.deepEqual(await unread(b.admin), [two.id, one.id]);
    const rows = await t.deps.db.selectFrom("announcement_reads").select("announcementId")
      .where("userId", "=", b.user.id).orderBy("announcementId").execute();
    assert.deepEqual(rows.map((r) => r.announcementId), [one.id, two.id]);
  }));

Deno.test("live announcements - every company hears company-<id>-announcement; an inactive one is a delete except for super users", () =>
  withServer(async (t, wsUrl) => {
    const { b, root } = await platform(t);
    const reader = await TestSocket.connect(wsUrl, b.user.token);
    const manager = await TestSocket.connect(wsUrl, root.token);
    const notice = await publish(t, root, { title: "Ao vivo", text: "Olá" });
    const heard = await reader.next((e) => e.event === `company-${b.id}-announcement`);
    assert.deepEqual(heard.data, { action: "create", record: notice, id: notice.id });

    await t.request("PUT", `/api/announcements/${notice.id}`, {
      token: root.token,
      body: { status: false },
    });
    const gone = await reader.next((e) =>
      e.event === `company-${b.id}-announcement` &&
      (e.data as { action: string }).action === "delete"
    );
    assert.deepEqual(gone.data, { action: "delete", id: notice.id });
    const kept = await manager.next((e) =>
      e.event === `company-${root.companyId}-announcement` &&
      (e.data as { action: string }).action === "update"
    );
    const record = (kept.data as { record: AnnouncementView }).record;
    assert.deepEqual([record.id, record.status], [notice.id, false]);
    // The reader never received the inactive record's content.
    assert.ok(!JSON.stringify(reader.events).includes('"status":false'));
    await reader.close();
    await manager.close();
  }));
