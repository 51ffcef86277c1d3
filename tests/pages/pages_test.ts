import assert from "node:assert/strict";
import { withApp } from "../helpers/app.ts";
import { scriptJson } from "../../routes/pages/render.ts";
import { loadManifest } from "../../routes/pages/assets.ts";

Deno.test("pages /login - server-rendered in Portuguese with its bundle, styles and data", () =>
  withApp(async (t) => {
    const res = await t.request("GET", "/login");
    assert.equal(res.status, 200);
    assert.match(res.headers.get("content-type") ?? "", /text\/html/);
    const html = await res.text();
    const assets = loadManifest().islands.LoginPage;
    assert.ok(html.startsWith("<!doctype html>"));
    assert.match(html, /<html lang="pt-BR" data-access="public">/);
    assert.ok(html.includes(`<script type="module" src="${assets.js}">`));
    for (const css of assets.css) assert.ok(html.includes(`href="${css}"`));
    for (const chunk of assets.imports) {
      assert.ok(html.includes(`rel="modulepreload" href="${chunk}"`));
    }
    assert.match(html, /<title>Entrar · Balcão<\/title>/);
    assert.match(html, /name="email"/);
    assert.match(html, /href="\/signup"/);
    const data = JSON.parse(html.match(/id="island-data">(.*?)<\/script>/)![1]);
    assert.equal(data.i18n.lng, "pt");
    assert.deepEqual(Object.keys(data.i18n.resources), ["pt"]);
    assert.equal(data.page.path, "/login");
  }));

Deno.test("pages - the lang cookie renders English, with pt embedded as the fallback", () =>
  withApp(async (t) => {
    const res = await t.request("GET", "/", { headers: { cookie: "other=1; lang=en" } });
    assert.equal(res.status, 200);
    const html = await res.text();
    assert.match(html, /<html lang="en-US" data-access="private" data-roles="[a-z ]+">/);
    assert.match(html, /Main menu/);
    const data = JSON.parse(html.match(/id="island-data">(.*?)<\/script>/)![1]);
    assert.deepEqual(Object.keys(data.i18n.resources).sort(), ["en", "pt"]);
    // An unknown language falls back to Portuguese.
    const fr = await (await t.request("GET", "/", { headers: { cookie: "lang=fr" } })).text();
    assert.match(fr, /<html lang="pt-BR"/);
  }));

Deno.test("pages - unknown page paths answer the 404 page; unknown API paths JSON", () =>
  withApp(async (t) => {
    const page = await t.request("GET", "/no/such/page");
    assert.equal(page.status, 404);
    assert.match(await page.text(), /Página não encontrada/);
    const api = await t.request("GET", "/api/no/such");
    assert.equal(api.status, 404);
    assert.deepEqual(await api.json(), { error: "ERR_NOT_FOUND", message: "Route not found" });
  }));

Deno.test("static - bundles are immutable, gzipped when accepted; no path escapes static/", () =>
  withApp(async (t) => {
    const js = loadManifest().islands.LoginPage.js;
    const plain = await t.request("GET", js);
    assert.equal(plain.status, 200);
    assert.equal(plain.headers.get("content-type"), "text/javascript; charset=utf-8");
    assert.equal(plain.headers.get("cache-control"), "public, max-age=31536000, immutable");
    const body = await plain.text();
    const zipped = await t.request("GET", js, { headers: { "accept-encoding": "gzip, br" } });
    assert.equal(zipped.headers.get("content-encoding"), "gzip");
    const unzipped = await new Response(
      zipped.body!.pipeThrough(new DecompressionStream("gzip")),
    ).text();
    assert.equal(unzipped, body);
    for (
      const path of ["/static/../deno.json", "/static/%2e%2e/deno.json", "/static/build/x.js.gz"]
    ) {
      const res = await t.request("GET", path);
      assert.equal(res.status, 404, path);
      await res.body?.cancel();
    }
    const favicon = await t.request("GET", "/static/favicon.svg");
    assert.equal(favicon.headers.get("content-type"), "image/svg+xml");
    await favicon.body?.cancel();
  }));

Deno.test("locales - served for the language switcher; unknown ones 404", () =>
  withApp(async (t) => {
    const res = await t.request("GET", "/locales/es.json");
    assert.equal(res.status, 200);
    const body = await res.json();
    assert.equal(body.shell.menu.logout, "Salir");
    const nope = await t.request("GET", "/locales/fr.json");
    assert.equal(nope.status, 404);
    await nope.body?.cancel();
  }));

Deno.test("pages - JSON in a script element cannot close it", () => {
  const out = scriptJson({ name: "</script><script>alert(1)</script>", sep: "a\u2028b" });
  assert.ok(!out.includes("</script>"));
  assert.deepEqual(JSON.parse(out), {
    name: "</script><script>alert(1)</script>",
    sep: "a\u2028b",
  });
});
