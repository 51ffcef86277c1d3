import assert from "node:assert/strict";
import { withApp } from "../helpers/app.ts";

/**
 * Issue 42 item 2: the installable app's files. The manifest names the start page and the icons
 * Chrome/Android, desktop and iOS need; /sw.js is served at the root (its scope is every page),
 * never cached stale, and under a policy that lets it fetch from us (a worker lives under its
 * script's CSP: the API's `default-src 'none'` stopped it from installing); /offline carries no
 * script and no user data.
 */
Deno.test("install - manifest, service worker and offline page", () =>
  withApp(async (t) => {
    const manifest = await t.request("GET", "/manifest.webmanifest");
    assert.equal(manifest.status, 200);
    assert.equal(manifest.headers.get("content-type"), "application/manifest+json");
    const body = await manifest.json();
    assert.equal(body.start_url, "/");
    assert.equal(body.display, "standalone");
    const sizes = body.icons.map((i: { sizes: string; purpose: string }) =>
      `${i.sizes} ${i.purpose}`
    );
    assert.deepEqual(sizes, ["192x192 any", "512x512 any", "512x512 maskable", "any any"]);
    for (const icon of body.icons as { src: string; type: string }[]) {
      const res = await t.request("GET", icon.src);
      assert.equal(res.status, 200, icon.src);
      assert.equal(res.headers.get("content-type"), icon.type);
      await res.body?.cancel();
    }

    const worker = await t.request("GET", "/sw.js");
    assert.equal(worker.status, 200);
    assert.match(worker.headers.get("content-type") ?? "", /^text\/javascript/);
    assert.equal(worker.headers.get("cache-control"), "no-cache");
    assert.equal(
      worker.headers.get("content-security-policy"),
      "default-src 'self'; frame-ancestors 'none'",
    );
    const source = await worker.text();
    assert.match(source, /addEventListener\("push"/);
    assert.match(source, /addEventListener\("notificationclick"/);

    const offline = await t.request("GET", "/offline", { headers: { cookie: "lang=en" } });
    assert.equal(offline.status, 200);
    const html = await offline.text();
    assert.match(html, /You are offline/);
    assert.doesNotMatch(html, /<script/);

    // Every page links the manifest and the iOS home-screen icon.
    const page = await (await t.request("GET", "/login")).text();
    assert.match(page, /<link rel="manifest" href="\/manifest.webmanifest"\/>/);
    assert.match(
      page,
      /<link rel="apple-touch-icon" href="\/static\/icons\/apple-touch-icon.png"\/>/,
    );
    assert.match(page, /serviceWorker/);
  }));
