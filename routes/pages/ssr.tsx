import type { ComponentType } from "react";
import { renderToStaticMarkup, renderToString } from "react-dom/server";
import type { i18n as I18n } from "i18next";
import type { IslandAssets } from "../../contract/manifest.ts";
import { IslandRoot } from "../../islands/lib/IslandRoot.tsx";
import { type Language, LOCALE_TAGS } from "../../islands/lib/i18n.ts";
import {
  ISLAND_DATA_ID,
  ISLAND_ROOT_ID,
  type IslandData,
  type PageInfo,
} from "../../islands/lib/page_context.ts";
import { HEAD_SCRIPT } from "../../islands/lib/head_script.ts";
import { scriptJson } from "./render.ts";

/**
 * The server side of React (react-dom/server and the islands it renders): imported by
 * renderPage on the first page it renders, not at start (issue 33: an API-only or idle process
 * does not carry it).
 */
export function renderDocument(
  { Island, props, i18n, lng, page, data, title, access, roles, assets }: {
    Island: ComponentType<Record<string, unknown>>;
    props: Record<string, unknown>;
    i18n: I18n;
    lng: Language;
    page: PageInfo;
    data: IslandData;
    title: string;
    access: string;
    roles: string | undefined;
    assets: IslandAssets;
  },
): string {
  // The island is rendered on its own (not inside the document) so that React's ids match the
  // browser's hydrateRoot on #island exactly.
  const islandHtml = renderToString(
    <IslandRoot i18n={i18n} page={page}>
      <Island {...props} />
    </IslandRoot>,
  );
  return renderToStaticMarkup(
    <html lang={LOCALE_TAGS[lng]} data-access={access} data-roles={roles}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="color-scheme" content="light dark" />
        <title>{title}</title>
        <link rel="icon" href="/static/favicon.svg" type="image/svg+xml" />
        {/* Installable (issue 42): the manifest, and the home-screen icon iOS reads. */}
        <link rel="manifest" href="/manifest.webmanifest" />
        <link rel="apple-touch-icon" href="/static/icons/apple-touch-icon.png" />
        <meta name="theme-color" content="#0284c7" />
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
}
