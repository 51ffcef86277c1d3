import assert from "node:assert/strict";
import { withApp } from "../helpers/app.ts";
import { loadManifest } from "../../routes/pages/assets.ts";

function islandData(html: string) {
  return JSON.parse(html.match(/id="island-data">(.*?)<\/script>/)![1]);
}

Deno.test("pages /tickets - the workspace island, private, with no ticket chosen", () =>
  withApp(async (t) => {
    const res = await t.request("GET", "/tickets");
    assert.equal(res.status, 200);
    const html = await res.text();
    const assets = loadManifest().islands.TicketsPage;
    assert.ok(html.includes(`<script type="module" src="${assets.js}">`));
    assert.match(html, /<html lang="pt-BR" data-access="private" data-roles="[a-z ]+">/);
    assert.match(html, /<title>Atendimentos · Balcão<\/title>/);
    const data = islandData(html);
    assert.deepEqual(data.props, { ticketId: null });
    assert.equal(data.page.path, "/tickets");
  }));

Deno.test("pages /tickets/{uuid} - the uuid reaches the island as ticketId", () =>
  withApp(async (t) => {
    const uuid = "0b6f7c1e-2d7a-4b55-9a51-3f3c1c2d9e10";
    const res = await t.request("GET", `/tickets/${uuid}`);
    assert.equal(res.status, 200);
    const data = islandData(await res.text());
    assert.deepEqual(data.props, { ticketId: uuid });
    // English window title with the lang cookie.
    const en =
      await (await t.request("GET", `/tickets/${uuid}`, { headers: { cookie: "lang=en" } }))
        .text();
    assert.match(en, /<title>Tickets · Balcão<\/title>/);
  }));
