import { Hono } from "hono";
import type { AppEnv } from "../../server/context.ts";
import { STATIC_DIR } from "./assets.ts";
import { requestLanguage } from "./i18n.ts";
import pt from "../../locales/pt.json" with { type: "json" };
import en from "../../locales/en.json" with { type: "json" };
import es from "../../locales/es.json" with { type: "json" };

/**
 * Issue 42 item 2: what makes the app installable. `/manifest.webmanifest` (name, start page,
 * icons: Chrome/Android and desktop offer "Install"; iOS 16.4+ adds it from Share › Add to Home
 * Screen), `/sw.js` (static/sw.js at the root, so its scope is every page) and `/offline`, the
 * page the worker keeps for when the network is down.
 */
const MANIFEST = {
  name: "Balcão",
  short_name: "Balcão",
  id: "/",
  start_url: "/",
  scope: "/",
  display: "standalone",
  background_color: "#0284c7",
  theme_color: "#0284c7",
  icons: [
    { src: "/static/icons/icon-192.png", sizes: "192x192", type: "image/png", purpose: "any" },
    { src: "/static/icons/icon-512.png", sizes: "512x512", type: "image/png", purpose: "any" },
    {
      src: "/static/icons/maskable-512.png",
      sizes: "512x512",
      type: "image/png",
      purpose: "maskable",
    },
    { src: "/static/favicon.svg", sizes: "any", type: "image/svg+xml", purpose: "any" },
  ],
};

const OFFLINE = { pt: pt.shell.offline, en: en.shell.offline, es: es.shell.offline };

const WORKER = Deno.readTextFileSync(`${STATIC_DIR}sw.js`);

const escape = (text: string) =>
  text.replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]!);

export function installRoutes() {
  const app = new Hono<AppEnv>();
  app.get("/manifest.webmanifest", (c) =>
    c.body(JSON.stringify(MANIFEST), 200, {
      "content-type": "application/manifest+json",
      "cache-control": "public, max-age=3600",
    }));
  // Checked by the browser on each navigation (no-cache): a new release's worker replaces the old.
  app.get("/sw.js", (c) =>
    c.body(WORKER, 200, {
      "content-type": "text/javascript; charset=utf-8",
      "cache-control": "no-cache",
      // A worker lives under its script's policy: it fetches pages and the offline page from us
      // (the default for non-pages, `default-src 'none'`, would refuse every fetch).
      "content-security-policy": "default-src 'self'; frame-ancestors 'none'",
    }));
  // No user data and no script: the worker may keep it and show it to whoever is offline.
  app.get("/offline", (c) => {
    const lng = requestLanguage(c.req.header("cookie"));
    const texts = OFFLINE[lng];
    return c.html(
      `<!doctype html><html lang="${lng}"><head><meta charset="utf-8">` +
        `<meta name="viewport" content="width=device-width, initial-scale=1">` +
        `<title>${escape(texts.title)}</title>` +
        `<link rel="icon" href="/static/favicon.svg" type="image/svg+xml"></head>` +
        `<body style="font-family:system-ui,sans-serif;max-width:32rem;margin:4rem auto;` +
        `padding:0 1rem;text-align:center">` +
        `<img src="/static/icons/icon-192.png" width="96" height="96" alt="">` +
        `<h1>${escape(texts.title)}</h1><p>${escape(texts.text)}</p>` +
        `<p><a href="/">${escape(texts.retry)}</a></p></body></html>`,
      200,
      { "cache-control": "no-cache" },
    );
  });
  return app;
}
