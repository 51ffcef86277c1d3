import assert from "node:assert/strict";
import { withApp } from "../helpers/app.ts";
import { loadManifest } from "../../routes/pages/assets.ts";

Deno.test("pages /connections and /simulator - private pages with their own bundles, in the cookie's language", () =>
  withApp(async (t) => {
    const manifest = loadManifest().islands;
    for (
      const [path, island, title] of [
        ["/connections", "ConnectionsPage", "Conexões"],
        ["/simulator", "SimulatorPage", "Simulador"],
      ]
    ) {
      const res = await t.request("GET", path);
      assert.equal(res.status, 200, path);
      const html = await res.text();
      assert.match(html, /<html lang="pt-BR" data-access="private" data-roles="[a-z ]+">/);
      assert.ok(html.includes(`<title>${title} · Balcão</title>`), path);
      assert.ok(html.includes(`src="${manifest[island].js}"`), path);
    }
    const en = await t.request("GET", "/connections", { headers: { cookie: "lang=en" } });
    assert.match(await en.text(), /<title>Connections · Balcão<\/title>/);
  }));
