/** Shape of static/build/manifest.json, written by scripts/build_islands.ts, read by the server. */
export type IslandAssets = {
  /** The island's entry module (public URL). */
  js: string;
  /** Chunks the entry imports statically, transitively (preloaded to avoid a waterfall). */
  imports: string[];
  /** Stylesheets of everything the island imports. */
  css: string[];
};

export type Manifest = {
  version: 1;
  islands: Record<string, IslandAssets>;
  /** The icon sprite (public URL): every lucide icon the islands name, as SVG symbols. */
  icons?: string;
};
