import assert from "node:assert/strict";
import { loadTicketView } from "../../server/tickets/view_repository.ts";
import { createCompany, login, twoCompanies, withApp } from "../helpers/app.ts";
import { eventually } from "../helpers/eventually.ts";
import { base64, connectSimulator, createQueue, phoneSends } from "./helpers.ts";

Deno.test("pipeline - the same message delivered 3 times stores 1 row", async () => {
  await withApp(async (t) => {
    const a = await createCompany(t, "Alpha");
    const wid = await connectSimulator(t, a);
    const message = { from: "5511988887777", name: "Ana", body: "oi", id: "WAMSG-1" };
    const first = await phoneSends(t, a.user.token, wid, message);
    assert.equal(first.status, 201);
    assert.equal(first.duplicate, false);
    for (let i = 0; i < 2; i++) {
      const again = await phoneSends(t, a.user.token, wid, message);
      assert.equal(again.status, 200);
      assert.equal(again.duplicate, true);
      assert.equal(again.id, first.id);
      assert.equal(again.ticketId, first.ticketId);
    }
    // and concurrently too
    const burst = await Promise.all(
      [1, 2, 3].map(() => phoneSends(t, a.user.token, wid, { ...message, id: "WAMSG-2" })),
    );
    assert.equal(burst.filter((r) => r.status === 201).length, 1);
    const rows = await t.deps.db.selectFrom("messages").selectAll().where("whatsappId", "=", wid)
      .execute();
    assert.deepEqual(rows.map((r) => r.wid).sort(), ["WAMSG-1", "WAMSG-2"]);
    const ticket = await t.deps.db.selectFrom("tickets").selectAll().where(
      "id",
      "=",
      first.ticketId!,
    )
      .executeTakeFirstOrThrow();
    assert.equal(ticket.unreadMessages, 2);
  });
});

Deno.test("pipeline - 50 concurrent messages from one new contact open 1 ticket and store 50", async () => {
  await withApp(async (t) => {
    const a = await createCompany(t, "Alpha");
    const wid = await connectSimulator(t, a);
    const results = await Promise.all(
      Array.from(
        { length: 50 },
        (_, i) =>
          phoneSends(t, a.user.token, wid, { from: "5511977776666", name: "Bia", body: `m${i}` }),
      ),
    );
    assert.ok(results.every((r) => r.status === 201));
    assert.equal(new Set(results.map((r) => r.ticketId)).size, 1);
    const tickets = await t.deps.db.selectFrom("tickets").selectAll().where("companyId", "=", a.id)
      .execute();
    assert.equal(tickets.length, 1);
    assert.equal(tickets[0].status, "pending");
    assert.equal(tickets[0].unreadMessages, 50);
    const contacts = await t.deps.db.selectFrom("contacts").selectAll().where(
      "companyId",
      "=",
      a.id,
    )
      .execute();
    assert.equal(contacts.length, 1);
    assert.equal(contacts[0].name, "Bia");
    const messages = await t.deps.db.selectFrom("messages").select("body")
      .where("ticketId", "=", tickets[0].id).execute();
    assert.equal(messages.length, 50);
  });
});

Deno.test("pipeline - ticket gets the connection's only queue; lastMessage, unread and order", async () => {
  await withApp(async (t) => {
    const a = await createCompany(t, "Alpha");
    const now = t.clock.now().toISOString();
    const queue = await t.deps.db.insertInto("queues").values({
      companyId: a.id,
      name: "Vendas",
      color: "#112233",
      orderQueue: 1,
      integrationId: null,
      promptId: null,
      mediaPath: null,
      mediaName: null,
      createdAt: now,
      updatedAt: now,
    }).returning("id").executeTakeFirstOrThrow();
    const wid = await connectSimulator(t, a, { queueIds: [queue.id] });
    const got = await phoneSends(t, a.user.token, wid, {
      from: "5511966665555",
      body: "quero comprar",
    });
    t.clock.advance(1000);
    await phoneSends(t, a.user.token, wid, { from: "5511966665555", body: "alguém?" });
    const ticket = await t.deps.db.selectFrom("tickets").selectAll().where("id", "=", got.ticketId!)
      .executeTakeFirstOrThrow();
    assert.equal(ticket.queueId, queue.id);
    assert.equal(ticket.status, "pending");
    assert.equal(ticket.lastMessage, "alguém?");
    assert.equal(ticket.unreadMessages, 2);
    assert.equal(ticket.updatedAt, t.clock.now().toISOString());
    // no greeting configured: nothing was sent
    const outbox = await t.deps.db.selectFrom("outbox").selectAll().execute();
    assert.equal(outbox.length, 0);
    // the contact's number became the name when no push name was given
    const contact = await t.deps.db.selectFrom("contacts").selectAll()
      .where("id", "=", ticket.contactId).executeTakeFirstOrThrow();
    assert.equal(contact.name, "5511966665555");
    // a later push name replaces the placeholder, but never a name someone typed
    await phoneSends(t, a.user.token, wid, { from: "5511966665555", name: "Carla", body: "oi" });
    const named = await t.deps.db.selectFrom("contacts").select("name")
      .where("id", "=", ticket.contactId).executeTakeFirstOrThrow();
    assert.equal(named.name, "Carla");
    await t.deps.db.updateTable("contacts").set({ name: "Carla (cliente VIP)" })
      .where("id", "=", ticket.contactId).execute();
    await phoneSends(t, a.user.token, wid, { from: "5511966665555", name: "Carlinha", body: "oi" });
    const kept = await t.deps.db.selectFrom("contacts").select("name")
      .where("id", "=", ticket.contactId).executeTakeFirstOrThrow();
    assert.equal(kept.name, "Carla (cliente VIP)");
  });
});

Deno.test("pipeline - LID and phone-number identities map to one contact", async () => {
  await withApp(async (t) => {
    const a = await createCompany(t, "Alpha");
    const wid = await connectSimulator(t, a);
    // first only the LID is known (privacy mode), then a message carries both
    const byLid = await phoneSends(t, a.user.token, wid, {
      lid: "123456789012345",
      name: "Duda",
      body: "a",
    });
    assert.equal(byLid.status, 201);
    const both = await phoneSends(t, a.user.token, wid, {
      lid: "123456789012345",
      from: "5511955554444",
      body: "b",
    });
    const byPhone = await phoneSends(t, a.user.token, wid, { from: "5511955554444", body: "c" });
    assert.equal(both.ticketId, byLid.ticketId);
    assert.equal(byPhone.ticketId, byLid.ticketId);
    const contacts = await t.deps.db.selectFrom("contacts").selectAll().where(
      "companyId",
      "=",
      a.id,
    )
      .execute();
    assert.equal(contacts.length, 1);
    assert.equal(contacts[0].number, "5511955554444");
    assert.equal(contacts[0].lid, "123456789012345");
    assert.equal(contacts[0].name, "Duda");
  });
});

Deno.test("pipeline - messages sent from the phone itself are stored as fromMe", async () => {
  await withApp(async (t) => {
    const a = await createCompany(t, "Alpha");
    const wid = await connectSimulator(t, a);
    const inbound = await phoneSends(t, a.user.token, wid, {
      from: "5511944443333",
      name: "Eva",
      body: "oi",
    });
    const mine = await phoneSends(t, a.user.token, wid, {
      from: "5511944443333",
      name: "Owner of the phone",
      body: "respondi pelo celular",
      fromMe: true,
    });
    assert.equal(mine.status, 201);
    assert.equal(mine.ticketId, inbound.ticketId);
    const row = await t.deps.db.selectFrom("messages").selectAll().where("id", "=", mine.id!)
      .executeTakeFirstOrThrow();
    assert.equal(row.fromMe, 1);
    assert.equal(row.body, "respondi pelo celular");
    const ticket = await t.deps.db.selectFrom("tickets").selectAll().where(
      "id",
      "=",
      inbound.ticketId!,
    )
      .executeTakeFirstOrThrow();
    assert.equal(ticket.unreadMessages, 1); // our own message is not unread
    assert.equal(ticket.lastMessage, "respondi pelo celular");
    const contact = await t.deps.db.selectFrom("contacts").select("name")
      .where("id", "=", ticket.contactId).executeTakeFirstOrThrow();
    assert.equal(contact.name, "Eva"); // the owner's push name never renames the contact
  });
});

Deno.test("pipeline - acks never go down; edits and deletions made on the phone", async () => {
  await withApp(async (t) => {
    const a = await createCompany(t, "Alpha");
    const wid = await connectSimulator(t, a);
    const got = await phoneSends(t, a.user.token, wid, {
      from: "5511933332222",
      body: "original",
      id: "E1",
    });
    const edit = await t.request("POST", `/api/simulator/${wid}/edit`, {
      token: a.user.token,
      body: { from: "5511933332222", id: "E1", body: "editado" },
    });
    assert.equal(edit.status, 200);
    assert.equal((await edit.json()).updated, true);
    let row = await t.deps.db.selectFrom("messages").selectAll().where("id", "=", got.id!)
      .executeTakeFirstOrThrow();
    assert.equal(row.body, "editado");
    assert.equal(row.isEdited, 1);
    // FTS follows the edit
    const found = await t.deps.db.selectFrom("messages_fts" as never).select("rowid" as never)
      .where("messages_fts" as never, "match" as never, "editado" as never).execute();
    assert.equal(found.length, 1);

    const revoke = await t.request("POST", `/api/simulator/${wid}/revoke`, {
      token: a.user.token,
      body: { from: "5511933332222", id: "E1" },
    });
    assert.equal(revoke.status, 200);
    row = await t.deps.db.selectFrom("messages").selectAll().where("id", "=", got.id!)
      .executeTakeFirstOrThrow();
    assert.equal(row.isDeleted, 1);
    // an edit after the deletion changes nothing
    await t.request("POST", `/api/simulator/${wid}/edit`, {
      token: a.user.token,
      body: { from: "5511933332222", id: "E1", body: "again" },
    });
    row = await t.deps.db.selectFrom("messages").selectAll().where("id", "=", got.id!)
      .executeTakeFirstOrThrow();
    assert.equal(row.body, "editado");

    // acks: out of order arrival never lowers the stored ack
    const ref = { id: wid, companyId: a.id };
    const pipeline = t.deps.sessions.inbound;
    await pipeline.handle(ref, {
      type: "ack",
      id: "E1",
      chatJid: "5511933332222@s.whatsapp.net",
      ack: 3,
    });
    await pipeline.handle(ref, {
      type: "ack",
      id: "E1",
      chatJid: "5511933332222@s.whatsapp.net",
      ack: 2,
    });
    row = await t.deps.db.selectFrom("messages").selectAll().where("id", "=", got.id!)
      .executeTakeFirstOrThrow();
    assert.equal(row.ack, 3);
  });
});

Deno.test("pipeline - malformed provider events are logged and ignored; the session keeps running", async () => {
  await withApp(async (t) => {
    const a = await createCompany(t, "Alpha");
    const wid = await connectSimulator(t, a);
    const ref = { id: wid, companyId: a.id };
    const pipeline = t.deps.sessions.inbound;
    const bad: unknown[] = [
      { type: "message", message: null },
      { type: "message", message: { id: "", chatJid: "x@s.whatsapp.net", body: "a" } },
      { type: "message", message: { id: "M", chatJid: "no-at-sign", body: "a" } },
      { type: "message", message: { id: "M", chatJid: "1@s.whatsapp.net", body: 42 } },
      { type: "ack", id: "M", chatJid: "1@s.whatsapp.net", ack: 9 },
      { type: "edit", id: 5, chatJid: "1@s.whatsapp.net", body: "x" },
      { type: "bogus" },
    ];
    for (const event of bad) {
      // deno-lint-ignore no-explicit-any
      const outcome = await pipeline.handle(ref, event as any);
      assert.ok(outcome.ignored, JSON.stringify(event));
    }
    const messages = await t.deps.db.selectFrom("messages").select("id").execute();
    assert.equal(messages.length, 0);
    assert.equal(t.deps.sessions.status(wid), "CONNECTED");
    const ok = await phoneSends(t, a.user.token, wid, {
      from: "5511922221111",
      body: "still fine",
    });
    assert.equal(ok.status, 201);
  });
});

Deno.test("pipeline - location, vcard and unknown media types", async () => {
  await withApp(async (t) => {
    const a = await createCompany(t, "Alpha");
    const wid = await connectSimulator(t, a);
    const loc = await phoneSends(t, a.user.token, wid, {
      from: "5511911110000",
      location: { latitude: -23.5, longitude: -46.6, name: "Av. Paulista" },
    });
    const card = await phoneSends(t, a.user.token, wid, {
      from: "5511911110000",
      vcard: { name: "Fulano", number: "5511912345678" },
    });
    const odd = await phoneSends(t, a.user.token, wid, {
      from: "5511911110000",
      media: {
        base64: base64("%PDF weird"),
        mimetype: "weird/<script>",
        filename: "../../etc/x.bin",
      },
    });
    const rows = await t.deps.db.selectFrom("messages").selectAll()
      .where("id", "in", [loc.id!, card.id!, odd.id!]).orderBy("id").execute();
    assert.equal(rows[0].mediaType, "locationMessage");
    assert.equal(rows[0].body, "https://maps.google.com/maps?q=-23.5%2C-46.6&z=17\nAv. Paulista");
    assert.equal(rows[1].mediaType, "vcard");
    assert.match(rows[1].body, /^BEGIN:VCARD\n.*FN:Fulano\n.*waid=5511912345678/s);
    assert.equal(rows[2].mediaType, "application");
    assert.equal(rows[2].mediaMimetype, "application/octet-stream");
    assert.equal(rows[2].mediaName, "x.bin");
    assert.match(rows[2].mediaUrl ?? "", new RegExp(`^${a.id}/[0-9a-f-]{36}\\.bin$`));
  });
});

Deno.test("pipeline - media is stored under DATA_DIR and served only to the right company", async () => {
  await withApp(async (t) => {
    const { a, b } = await twoCompanies(t);
    const wid = await connectSimulator(t, a);
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 1, 2, 3, 4]);
    const got = await phoneSends(t, a.user.token, wid, {
      from: "5511900001111",
      body: "foto",
      media: {
        base64: btoa(String.fromCharCode(...png)),
        mimetype: "image/png",
        filename: "foto.png",
      },
    });
    assert.equal(got.status, 201);
    const row = await t.deps.db.selectFrom("messages").selectAll().where("id", "=", got.id!)
      .executeTakeFirstOrThrow();
    assert.equal(row.mediaType, "image");
    assert.equal(row.body, "foto");
    const file = `${t.dir}/media/${row.mediaUrl}`;
    assert.deepEqual(await Deno.readFile(file), png);

    const res = await t.request("GET", `/api/messages/${got.id}/media`, { token: a.user.token });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get("content-type"), "image/png");
    assert.equal(res.headers.get("x-content-type-options"), "nosniff");
    assert.deepEqual(new Uint8Array(await res.arrayBuffer()), png);

    const foreign = await t.request("GET", `/api/messages/${got.id}/media`, {
      token: b.admin.token,
    });
    assert.equal(foreign.status, 404);
    assert.equal((await foreign.json()).error, "ERR_NO_MESSAGE_FOUND");
    const anonymous = await t.request("GET", `/api/messages/${got.id}/media`);
    assert.equal(anonymous.status, 401);
    await anonymous.body?.cancel();
    // the simulator of A is not B's either
    const sim = await phoneSends(t, b.admin.token, wid, { from: "5511900001111", body: "x" });
    assert.equal(sim.status, 404);
  });
});

Deno.test("pipeline - media over MEDIA_MAX_BYTES is refused with a placeholder; nothing lost", async () => {
  await withApp(async (t) => {
    const a = await createCompany(t, "Alpha");
    const wid = await connectSimulator(t, a);
    const big = "x".repeat(3000);
    const got = await phoneSends(t, a.user.token, wid, {
      from: "5511900002222",
      body: "video",
      media: { base64: btoa(big), mimetype: "video/mp4", filename: "v.mp4" },
    });
    assert.equal(got.status, 201);
    const row = await t.deps.db.selectFrom("messages").selectAll().where("id", "=", got.id!)
      .executeTakeFirstOrThrow();
    assert.equal(row.mediaUrl, null);
    assert.equal(row.mediaType, null);
    assert.match(row.body, /^video\n\n\[Mídia não recebida: arquivo maior que o limite/);
    const dir = [...Deno.readDirSync(t.dir)].map((e) => e.name);
    assert.ok(!dir.includes("media") || [...Deno.readDirSync(`${t.dir}/media`)].length === 0);
  }, { MEDIA_MAX_BYTES: "2048" });
});

Deno.test("pipeline - the simulator takes a file larger than the JSON body limit, up to MEDIA_MAX_BYTES", async () => {
  await withApp(async (t) => {
    const a = await createCompany(t, "Alpha");
    const wid = await connectSimulator(t, a);
    // 1.5 MB of file is 2 MB of base64: over BODY_LIMIT_BYTES (1 MB), under MEDIA_MAX_BYTES.
    const file = new Uint8Array(1_500_000).map((_, i) => i % 251);
    let binary = "";
    for (const byte of file) binary += String.fromCharCode(byte);
    const got = await phoneSends(t, a.user.token, wid, {
      from: "5511900004444",
      media: { base64: btoa(binary), mimetype: "application/pdf", filename: "contrato.pdf" },
    });
    assert.equal(got.status, 201);
    const row = await t.deps.db.selectFrom("messages").selectAll().where("id", "=", got.id!)
      .executeTakeFirstOrThrow();
    assert.equal(row.mediaName, "contrato.pdf");
    const stored = await Deno.readFile(`${t.dir}/media/${row.mediaUrl}`);
    assert.deepEqual(stored, file);

    // Other JSON routes keep the small limit.
    const res = await t.request("PUT", "/api/settings/userRating", {
      token: a.admin.token,
      body: { value: "x".repeat(2_000_000) },
    });
    assert.equal(res.status, 413);
    assert.equal((await res.json()).error, "ERR_BODY_TOO_LARGE");
  });
});

Deno.test("pipeline - a new contact's profile picture is fetched after the message", async () => {
  await withApp(async (t) => {
    const a = await createCompany(t, "Alpha");
    const wid = await connectSimulator(t, a);
    const got = await phoneSends(t, a.user.token, wid, {
      from: "5511900003333",
      body: "oi",
      avatarUrl: "https://pics.example/abc.jpg",
    });
    const ticket = await t.deps.db.selectFrom("tickets").select("contactId").where(
      "id",
      "=",
      got.ticketId!,
    )
      .executeTakeFirstOrThrow();
    const pic = await eventually(async () => {
      const c = await t.deps.db.selectFrom("contacts").select("profilePicUrl")
        .where("id", "=", ticket.contactId).executeTakeFirstOrThrow();
      return c.profilePicUrl || undefined;
    });
    assert.equal(pic, "https://pics.example/abc.jpg");
  });
});

Deno.test("pipeline - the ticket published with a message is the ticket as loaded from the database", async () => {
  await withApp(async (t) => {
    const a = await createCompany(t, "Alpha");
    const queue = await createQueue(t, a.id, { name: "Vendas" });
    const wid = await connectSimulator(t, a, { queueIds: [queue] });
    const first = await phoneSends(t, a.user.token, wid, {
      from: "5511900004444",
      name: "Ivo",
      body: "1",
    });
    const now = t.clock.now().toISOString();
    const tag = await t.deps.db.insertInto("tags").values({
      companyId: a.id,
      name: "VIP",
      color: "#ff0000",
      createdAt: now,
      updatedAt: now,
    }).returning("id").executeTakeFirstOrThrow();
    await t.deps.db.insertInto("ticket_tags").values({
      companyId: a.id,
      ticketId: first.ticketId!,
      tagId: tag.id,
    })
      .execute();
    await t.deps.db.updateTable("tickets").set({ userId: a.user.id, status: "open" })
      .where("id", "=", first.ticketId!).execute();
    const published: unknown[] = [];
    const member = t.deps.hub.add({
      companyId: a.id,
      userId: a.admin.id,
      profile: "admin",
      queueIds: [],
    }, {
      send: (text: string) => published.push(JSON.parse(text)),
      close: () => {},
    });
    t.deps.hub.join(member, { kind: "status", status: "open" });
    t.clock.advance(5000);
    const { token } = await login(t, a.user.email, a.user.password);
    await phoneSends(t, token, wid, { from: "5511900004444", body: "2" });
    t.deps.hub.remove(member);
    const event = published.find((e) =>
      (e as { event: string }).event === `company-${a.id}-appMessage`
    ) as {
      data: { ticket: unknown };
    };
    assert.ok(event);
    const loaded = await loadTicketView(t.deps.db, a.id, first.ticketId!);
    assert.deepEqual(event.data.ticket, loaded);
    assert.equal(loaded?.unreadMessages, 2);
    assert.deepEqual(loaded?.tags, [{ id: tag.id, name: "VIP", color: "#ff0000" }]);
    assert.equal(loaded?.user?.id, a.user.id);
    assert.equal(loaded?.queue?.name, "Vendas");
  });
});
