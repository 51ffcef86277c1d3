import { Hono } from "hono";
import type { AppEnv } from "../../server/context.ts";
import type { Language } from "../../islands/lib/i18n.ts";
import { requestLanguage, serverI18n } from "./i18n.ts";

/**
 * /api-docs (issue 16): the OpenAPI document (/api/openapi.json) rendered by Swagger UI, whose
 * files come from the swagger-ui-dist package and are served by us (no CDN). Only the two files
 * the page loads are served, by name.
 */
const FILES: Record<string, string> = {
  "swagger-ui.css": "text/css; charset=utf-8",
  "swagger-ui-bundle.js": "text/javascript; charset=utf-8",
};

// A file, not an inline script: pages allow scripts from our origin only (routes/pages/csp.ts).
const INIT = `SwaggerUIBundle({ url: "/api/openapi.json", dom_id: "#docs", deepLinking: true });\n`;

/** The page, with a bar back to the app in the visitor's language (issue 24). */
function page(lng: Language): string {
  const t = serverI18n(lng).t;
  return `<!doctype html>
<html lang="${lng}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(t("apiDocs.title"))}</title>
<link rel="stylesheet" href="/api-docs/swagger-ui.css">
</head>
<body style="margin:0">
<nav style="display:flex;gap:16px;align-items:center;padding:12px 20px;border-bottom:1px solid #e5e7eb;font-family:system-ui,sans-serif">
<a href="/" data-testid="api-docs-back" style="color:#0b74c4;font-weight:600;text-decoration:none">&larr; ${
    escapeHtml(t("apiDocs.back"))
  }</a>
<a href="/messages-api" style="color:#0b74c4;text-decoration:none">${
    escapeHtml(t("apiDocs.messagesApi"))
  }</a>
</nav>
<div id="docs"></div>
<script src="/api-docs/swagger-ui-bundle.js"></script>
<script src="/api-docs/init.js"></script>
</body>
</html>`;
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;");
}

/**
 * The package's folder. Only its path helper is imported, and only when a file is first asked
 * for: the package's main module loads the whole Swagger UI bundle (about 1.5 MB of JavaScript)
 * into the server (issue 33).
 */
let folder: Promise<string> | undefined;
const swaggerFolder = () =>
  folder ??= import("swagger-ui-dist/absolute-path.js").then((m) => (m.default as () => string)());

export function apiDocsRoutes() {
  const app = new Hono<AppEnv>();
  app.get("/", (c) => c.html(page(requestLanguage(c.req.header("cookie")))));
  app.get("/init.js", (c) =>
    c.body(INIT, 200, {
      "content-type": "text/javascript; charset=utf-8",
      "cache-control": "public, max-age=300",
    }));
  app.get("/:file", async (c) => {
    const file = c.req.param("file");
    const type = FILES[file];
    if (!type) return c.notFound();
    const body = await Deno.readFile(`${await swaggerFolder()}/${file}`);
    return c.body(body, 200, { "content-type": type, "cache-control": "public, max-age=86400" });
  });
  return app;
}
