import { createContext, useContext } from "react";

/**
 * What the server tells an island about the request (same value on the server and in hydration):
 * its path, and the URL of the build's icon sprite (lib/ui/icon.tsx).
 */
export type PageInfo = { path: string; icons?: string };

export const PageContext = createContext<PageInfo>({ path: "/" });

export function usePage(): PageInfo {
  return useContext(PageContext);
}

/** The id of the element holding the island's server-rendered HTML and of its data. */
export const ISLAND_ROOT_ID = "island";
export const ISLAND_DATA_ID = "island-data";

/** The JSON a page embeds for its island. */
export type IslandData = {
  props: Record<string, unknown>;
  i18n: import("./i18n.ts").I18nPayload;
  page: PageInfo;
};
