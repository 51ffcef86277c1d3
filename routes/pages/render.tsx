import type { ComponentType } from "react";
import { renderToStaticMarkup, renderToString } from "react-dom/server";
import type { Context } from "hono";
import { IslandRoot } from "../../islands/lib/IslandRoot.tsx";
import { LOCALE_TAGS } from "../../islands/lib/i18n.ts";
import { ISLAND_DATA_ID, ISLAND_ROOT_ID, type IslandData } from "../../islands/lib/page_context.ts";
import { HEAD_SCRIPT } from "../../islands/lib/theme.ts";
import { pageAction, rolesFor } from "../../contract/policy.ts";
import { islandAssets } from "./assets.ts";
import { payloadFor, requestLanguage, serverI18n } from "./i18n.ts";

/** Values that survive JSON: island props cross from the server to the browser as JSON. */
export type Json = string | number | boolean | null | Json[] | { [key: string]: Json };

/**
 * - "private": needs a stored token; without one the head script goes to /login before paint.
 * - "public": /login, /signup; with a stored token the head script goes to /.
 * - "any": no redirect (the 404 page).
 */
export type PageAccess = "private" | "public" | "any";

export type PageSpec<P> = {
  /** The island file's name: islands/<island>.tsx (its bundle in the manifest). */
  island: string;
  /** That file's default export (rendered here for SSR, hydrated in the browser). */
  component: ComponentType<P>;
  props: P;
  /** i18n key of the window title, e.g. "dashboard.title". */
  title: string;
  access?: PageAccess;
  status?: 200 | 404;
};

/** The roles that may open the page at `path` (the head script's rule), none: its own guard. */
function rolesOfPage(path: string): string | undefined {
  const action = pageAction(path);
  return action ? rolesFor(action).join(" ") : undefined;
}

/** JSON inside a <script> element: `<` escaped so that no string can close the element. */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, "\\u003c")
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");
}

/**
 * Renders a page: the island server-side inside the document (head with the CSS, the theme and
 * guard script, module preloads), plus the JSON the browser hydrates it with.
 *
 *   pages.get("/tickets", (c) =>
 *     renderPage(c, { island: "TicketsPage", component: TicketsPage, props: {}, title: "tickets.title" }));
 */
export function renderPage<P extends { [key: string]: Json }>(
  c: Context,
  spec: PageSpec<P>,
): Response {
  const lng = requestLanguage(c.req.header("cookie"));
  const i18n = serverI18n(lng);
  const assets = islandAssets(spec.island);
  const page = { path: c.req.path };
  const Island = spec.component;
  // The island is rendered on its own (not inside the document) so that React's ids match the
  // browser's hydrateRoot on #island exactly.
  const islandHtml = renderToString(
    <IslandRoot i18n={i18n} page={page}>
      <Island {...spec.props} />
    </IslandRoot>,
  );
  const data: IslandData = { props: spec.props, i18n: payloadFor(lng), page };
  const document = renderToStaticMarkup(
    <html
      lang={LOCALE_TAGS[lng]}
      data-access={spec.access ?? "private"}
      data-roles={(spec.access ?? "private") === "private" ? rolesOfPage(c.req.path) : undefined}
    >
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="color-scheme" content="light dark" />
        <title>{`${i18n.t(spec.title)} · Balcão`}</title>
        <link rel="icon" href="/static/favicon.svg" type="image/svg+xml" />
        <script dangerouslySetInnerHTML={{ __html: HEAD_SCRIPT }} />
        {assets.css.map((href) => <link key={href} rel="stylesheet" href={href} />)}
        {assets.imports.map((href) => <link key={href} rel="modulepreload" href={href} />)}
        <script type="module" src={assets.js} />
      </head>
      <body>
        <div id={ISLAND_ROOT_ID} dangerouslySetInnerHTML={{ __html: islandHtml }} />
        <script
          type="application/json"
          id={ISLAND_DATA_ID}
          dangerouslySetInnerHTML={{ __html: scriptJson(data) }}
        />
      </body>
    </html>,
  );
  // Security headers (CSP with the head script's hash, nosniff...): server/http/security_headers.ts.
  return c.html(`<!doctype html>${document}`, spec.status ?? 200, { "cache-control": "no-store" });
}
