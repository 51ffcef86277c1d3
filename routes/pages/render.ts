import type { ComponentType } from "react";
import type { Context } from "hono";
import { pageAction, rolesFor } from "../../contract/policy.ts";
import { islandAssets, loadManifest } from "./assets.ts";
import { payloadFor, requestLanguage, serverI18n } from "./i18n.ts";

/**
 * `import(url)` that costs nothing until it runs (issue 33). Deno builds the module graph of every
 * literal dynamic import (`import("./ssr.tsx")`) as soon as the importing module loads and keeps
 * its parsed sources for the life of the process, run or not: React's server renderer and the 34
 * page islands held 21-28 MB of an idle server. A specifier in a variable is resolved only when
 * the import runs; the module's type comes from a type-only `typeof import(...)`, which loads
 * nothing.
 */
function lazyImport<M>(url: string): Promise<M> {
  return import(url);
}

/** React's server renderer, loaded with the first page. */
const SSR = new URL("./ssr.tsx", import.meta.url).href;

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
  /**
   * Imports that file (`islandModule<typeof import("../../islands/<island>.tsx")>("<island>")`):
   * its default export is rendered here for SSR and hydrated in the browser. Imported on the
   * page's first request.
   */
  load: () => Promise<{ default: ComponentType<P> }>;
  props: P;
  /** i18n key of the window title, e.g. "dashboard.title". */
  title: string;
  access?: PageAccess;
  status?: 200 | 404;
};

/**
 * The loader of islands/<island>.tsx, typed by the caller: not a literal `import()`, which would
 * load every island's module graph at start (lazyImport). Its name is the spec's `island`
 * (tests/pages/startup_imports_test.ts checks routes/pages/index.ts for it).
 */
export function islandModule<M>(island: string): () => Promise<M> {
  const url = new URL(`../../islands/${island}.tsx`, import.meta.url).href;
  return () => lazyImport<M>(url);
}

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
 * guard script, module preloads), plus the JSON the browser hydrates it with. The island's module
 * and React's server renderer load on the first request for a page (routes/pages/ssr.tsx).
 *
 *   pages.get("/tickets", (c) => renderPage(c, {
 *     island: "TicketsPage",
 *     load: islandModule<typeof import("../../islands/TicketsPage.tsx")>("TicketsPage"),
 *     props: {}, title: "tickets.title" }));
 */
export async function renderPage<P extends { [key: string]: Json }>(
  c: Context,
  spec: PageSpec<P>,
): Promise<Response> {
  const [{ renderDocument }, { default: Island }] = await Promise.all([
    lazyImport<typeof import("./ssr.tsx")>(SSR),
    spec.load(),
  ]);
  const lng = requestLanguage(c.req.header("cookie"));
  const i18n = serverI18n(lng);
  const page = { path: c.req.path, icons: loadManifest().icons };
  const access = spec.access ?? "private";
  const document = renderDocument({
    Island: Island as ComponentType<Record<string, unknown>>,
    props: spec.props,
    i18n,
    lng,
    page,
    data: { props: spec.props, i18n: payloadFor(lng), page },
    title: `${i18n.t(spec.title)} · Balcão`,
    access,
    roles: access === "private" ? rolesOfPage(c.req.path) : undefined,
    assets: islandAssets(spec.island),
  });
  // Security headers (CSP with the head script's hash, nosniff...): server/http/security_headers.ts.
  return c.html(`<!doctype html>${document}`, spec.status ?? 200, { "cache-control": "no-store" });
}
