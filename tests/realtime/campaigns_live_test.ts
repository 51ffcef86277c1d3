import assert from "node:assert/strict";
import { createTestApp, twoCompanies } from "../helpers/app.ts";
import { serve, TestSocket } from "../helpers/server.ts";
import { createList } from "../campaigns/helpers.ts";

Deno.test("campaign channels - a company hears its lists, items, campaigns and files; another hears nothing", async () => {
  const t = await createTestApp();
  const server = serve(t);
  const sockets: TestSocket[] = [];
  try {
    const { a, b } = await twoCompanies(t);
    const sa = await TestSocket.connect(server.wsUrl, a.admin.token);
    const sb = await TestSocket.connect(server.wsUrl, b.admin.token);
    sockets.push(sa, sb);
    const token = a.admin.token;
    const listId = await createList(t, a, "Clientes");
    await t.request("POST", "/api/contact-list-items", {
      token,
      body: { name: "Ana", number: "5511988887777", contactListId: listId },
    });
    await t.request("POST", "/api/campaigns", { token, body: { name: "Promo" } });
    await t.request("POST", "/api/files", { token, body: { name: "Catálogo", message: "Oi" } });
    for (const channel of ["contactList", "contactListItem", "campaign", "file"]) {
      const event = await sa.next((e) => e.event === `company-${a.id}-${channel}`);
      assert.equal((event.data as { action: string }).action, "create", channel);
    }
    await sb.settle();
    assert.deepEqual(
      sb.events.filter((e) => /contactList|campaign|file/.test(e.event)).map((e) => e.event),
      [],
    );
  } finally {
    for (const s of sockets) s.ws.close();
    await Promise.all(sockets.map((s) => s.closed));
    await server.close();
    await t.close();
  }
});
