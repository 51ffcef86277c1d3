/** What `use-sync-external-store/shim` gives React 16 and 17, from React itself (build_islands.ts). */
export { useSyncExternalStore } from "react";
