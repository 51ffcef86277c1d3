import type { ComponentType } from "react";
import { hydrateRoot } from "react-dom/client";
import { createI18n } from "./i18n.ts";
import { IslandRoot } from "./IslandRoot.tsx";
import { ISLAND_DATA_ID, ISLAND_ROOT_ID, type IslandData } from "./page_context.ts";

/**
 * Browser entry of every island (the build generates `hydrateIsland(Island)` per islands/*.tsx):
 * reads the JSON the server embedded and hydrates the same tree the server rendered.
 */
export function hydrateIsland(Island: ComponentType<Record<string, unknown>>) {
  const root = document.getElementById(ISLAND_ROOT_ID);
  const dataElement = document.getElementById(ISLAND_DATA_ID);
  if (!root || !dataElement) throw new Error("island markup missing");
  const data = JSON.parse(dataElement.textContent ?? "{}") as IslandData;
  const i18n = createI18n(data.i18n);
  hydrateRoot(
    root,
    <IslandRoot i18n={i18n} page={data.page}>
      <Island {...data.props} />
    </IslandRoot>,
  );
}
