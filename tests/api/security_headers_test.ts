import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { createCompany, type TestApp, withApp } from "../helpers/app.ts";
import { base64, connectSimulator, phoneSends } from "../whatsapp/helpers.ts";
import { storeInboundMedia } from "../../server/whatsapp/inbound/media.ts";
import type { InboundMessage, MediaType } from "../../server/whatsapp/providers/provider.ts";

/**
 * Issue 35, findings 2 and 6 and the /static item of 9: what a contact's SVG becomes, the
 * headers of stored files, of pages and of API answers.
 */
const SVG = `<svg xmlns="http://www.w3.org/2000/svg" onload="fetch('/x?'+localStorage.token)">` +
  `<script>parent.postMessage(localStorage.token, "*")</script></svg>`;
const PNG = new Uint8Array([137, 80, 78, 71, 13, 10, 26, 10, 0, 0, 0, 13]);

async function mediaOf(t: TestApp, token: string, id: number) {
  const res = await t.request("GET", `/api/messages/${id}/media`, { token });
  assert.equal(res.status, 200, await res.clone().text());
  await res.body?.cancel();
  return res.headers;
}

function assertCommon(headers: Headers, what: string) {
  assert.equal(headers.get("x-content-type-options"), "nosniff", what);
  assert.equal(headers.get("x-frame-options"), "DENY", what);
  assert.equal(headers.get("referrer-policy"), "same-origin", what);
  assert.match(
    headers.get("content-security-policy") ?? "",
    /frame-ancestors 'none'|sandbox/,
    what,
  );
}

Deno.test("media - an SVG a contact sends is stored and served as a download, never as an image", () =>
  withApp(async (t) => {
    const a = await createCompany(t, "Alpha");
    const wid = await connectSimulator(t, a);
    const from = "5511955550041";
    const svg = await phoneSends(t, a.admin.token, wid, {
      from,
      media: { base64: base64(SVG), mimetype: "image/svg+xml", filename: "foto.svg" },
    });
    const png = await phoneSends(t, a.admin.token, wid, {
      from,
      media: { base64: btoa(String.fromCharCode(...PNG)), mimetype: "image/png" },
    });
    const rows = await t.deps.db.selectFrom("messages")
      .select(["id", "mediaType", "mediaMimetype", "mediaName"])
      .where("companyId", "=", a.id).where("id", "in", [svg.id!, png.id!]).orderBy("id").execute();
    assert.deepEqual(rows.map((r) => [r.mediaType, r.mediaMimetype]), [
      ["application", "application/octet-stream"],
      ["image", "image/png"],
    ]);
    assert.equal(rows[0].mediaName, "foto.svg", "the name stays: the download keeps it");

    let headers = await mediaOf(t, a.admin.token, svg.id!);
    assert.equal(headers.get("content-type"), "application/octet-stream");
    assert.equal(headers.get("content-disposition"), "attachment; filename*=UTF-8''foto.svg");
    assert.equal(headers.get("content-security-policy"), "default-src 'none'; sandbox");
    assertCommon(headers, "svg");
    headers = await mediaOf(t, a.admin.token, png.id!);
    assert.equal(headers.get("content-type"), "image/png");
    assert.match(headers.get("content-disposition") ?? "", /^inline;/);
    assertCommon(headers, "png");

    // A row stored before this rule (an SVG typed as such) is served as a download too.
    await t.deps.db.updateTable("messages").set({ mediaMimetype: "image/svg+xml" })
      .where("companyId", "=", a.id).where("id", "=", svg.id!).execute();
    headers = await mediaOf(t, a.admin.token, svg.id!);
    assert.equal(headers.get("content-type"), "application/octet-stream");
    assert.match(headers.get("content-disposition") ?? "", /^attachment;/);
  }));

Deno.test("media - a WhatsApp 'image' message whose file is an SVG or HTML is a document", async () => {
  const dataDir = await Deno.makeTempDir({ prefix: "balcao-media-" });
  try {
    const config = { mediaDir: `${dataDir}/media`, mediaMaxBytes: 1024 * 1024 };
    const inbound = (mimetype: string, mediaType: MediaType): InboundMessage => ({
      id: crypto.randomUUID(),
      chatJid: "5511955550042@s.whatsapp.net",
      isGroup: false,
      fromMe: false,
      body: "",
      timestamp: new Date(),
      origin: "notify",
      mediaType,
      media: {
        mimetype,
        download: () => Promise.resolve(new TextEncoder().encode(SVG)),
      },
    });
    const kinds = [];
    for (
      const [mimetype, declared] of [
        ["image/svg+xml", "image"],
        ["text/html; charset=utf-8", "image"],
        ["image/x-icon", "image"],
        ["application/xhtml+xml", "video"],
        ["image/webp", "image"],
        ["audio/ogg; codecs=opus", "audio"],
      ] as const
    ) {
      const result = await storeInboundMedia(config, 1, 1, inbound(mimetype, declared));
      assert.equal(result.kind, "stored");
      if (result.kind === "stored") kinds.push([result.mediaType, result.stored.mimetype]);
    }
    assert.deepEqual(kinds, [
      ["application", "application/octet-stream"],
      ["application", "application/octet-stream"],
      ["application", "application/octet-stream"],
      ["application", "application/octet-stream"],
      ["image", "image/webp"],
      ["audio", "audio/ogg"],
    ]);
  } finally {
    await Deno.remove(dataDir, { recursive: true });
  }
});

/** The inline scripts of a page (not JSON data blocks) and the script-src of its policy. */
function inlineScripts(html: string): string[] {
  return [...html.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)]
    .filter(([, attrs]) => !/\bsrc=/.test(attrs) && !/type="application\/json"/.test(attrs))
    .map(([, , body]) => body);
}

Deno.test("security headers - pages allow only our scripts (the head script by its hash); API answers run nothing", () =>
  withApp(async (t) => {
    const a = await createCompany(t, "Alpha");
    for (const path of ["/login", "/tickets", "/no-such-page", "/api-docs"]) {
      const res = await t.request("GET", path);
      const html = await res.text();
      assert.match(res.headers.get("content-type") ?? "", /^text\/html/, path);
      assertCommon(res.headers, path);
      assert.equal(res.headers.get("cross-origin-opener-policy"), "same-origin", path);
      const policy = res.headers.get("content-security-policy") ?? "";
      const directives = new Map(
        policy.split(";").map((d) => d.trim().split(/\s+/)).map(([k, ...v]) => [k, v]),
      );
      assert.deepEqual(directives.get("object-src"), ["'none'"], path);
      assert.deepEqual(directives.get("frame-ancestors"), ["'none'"], path);
      assert.deepEqual(directives.get("base-uri"), ["'none'"], path);
      const scriptSrc = directives.get("script-src") ?? [];
      assert.equal(scriptSrc[0], "'self'", path);
      assert.equal(scriptSrc.some((s) => s.includes("unsafe")), false, path);
      // Every inline script the page has is allowed by its hash, and nothing else is inline.
      for (const body of inlineScripts(html)) {
        const hash = createHash("sha256").update(body).digest("base64");
        assert.ok(scriptSrc.includes(`'sha256-${hash}'`), `${path}: an inline script not allowed`);
      }
      assert.ok(inlineScripts(html).length <= 1, path);
    }
    const answers = [
      await t.request("GET", "/api/auth/me", { token: a.admin.token }),
      await t.request("GET", "/api/tickets"),
      await t.request("GET", "/api/no-such-route"),
      await t.request("GET", "/healthz"),
      await t.request("GET", "/static/favicon.svg"),
    ];
    for (const res of answers) {
      await res.body?.cancel();
      assertCommon(res.headers, `${res.url} ${res.status}`);
      assert.equal(
        res.headers.get("content-security-policy"),
        "default-src 'none'; frame-ancestors 'none'",
      );
    }
    assert.deepEqual(answers.map((r) => r.status), [200, 401, 404, 200, 200]);
  }));

Deno.test("static - a malformed percent-escape is 400, not a 500 with a stack in the log", () =>
  withApp(async (t) => {
    // server/log.ts writes through the console: what it writes meanwhile is kept here.
    const logged: string[] = [];
    const { error, log } = console;
    // deno-lint-ignore no-console
    console.error = (...args: unknown[]) => logged.push(args.join(" "));
    // deno-lint-ignore no-console
    console.log = (...args: unknown[]) => logged.push(args.join(" "));
    try {
      for (const path of ["/static/%E0%A4%A", "/static/%", "/static/build/%zz.js"]) {
        const res = await t.request("GET", path);
        assert.equal(res.status, 400, path);
        assert.equal((await res.json()).error, "ERR_VALIDATION", path);
      }
    } finally {
      // deno-lint-ignore no-console
      console.error = error;
      // deno-lint-ignore no-console
      console.log = log;
    }
    assert.deepEqual(logged.filter((line) => /URIError|stack|"level":"error"/.test(line)), []);
    // A well-formed path still serves.
    assert.equal((await t.request("GET", "/static/favicon.svg")).status, 200);
  }));
