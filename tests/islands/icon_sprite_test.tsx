import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { renderToStaticMarkup } from "react-dom/server";
import type { Manifest } from "../../contract/manifest.ts";
import { icon } from "../../islands/lib/ui/icon.tsx";
import { PageContext } from "../../islands/lib/page_context.ts";
import { iconNames } from "../../scripts/icon_sprite.ts";

/**
 * Issue 33: icons are `<use>` references into the build's sprite (islands/lib/ui/icon.tsx), so an
 * icon the code names but the sprite lacks would be an empty square. Reads the production build
 * (`deno task build` first).
 */
const STATIC = fileURLToPath(new URL("../../static", import.meta.url));

Deno.test("icon sprite - every icon the islands name is a symbol of the built sprite", async () => {
  let manifest: Manifest;
  try {
    manifest = JSON.parse(await Deno.readTextFile(`${STATIC}/build/manifest.json`));
  } catch {
    throw new Error("no production build: run `deno task build` first");
  }
  // In the build's own folder (static/build/<build>/, scripts/build_islands.ts).
  assert.match(
    manifest.icons ?? "",
    /^\/static\/build\/b[0-9a-f-]+\/icons-/,
    "the manifest names the sprite",
  );
  const svg = await Deno.readTextFile(`${STATIC}${manifest.icons!.slice("/static".length)}`);
  const symbols = new Set([...svg.matchAll(/<symbol id="([^"]+)"/g)].map((m) => m[1]));
  const named = await iconNames();
  assert.ok(named.length >= 50, "the scan finds the icons the islands name");
  assert.deepEqual(named.filter((name) => !symbols.has(name)), []);
  // A symbol holds lucide's drawing (paths, circles...), not an empty shell.
  assert.match(
    svg,
    /<symbol id="plus" viewBox="0 0 24 24"><path d="M5 12h14"\/><path d="M12 5v14"\/><\/symbol>/,
  );
});

Deno.test("icon sprite - an icon renders lucide's svg attributes around a use of the sprite", () => {
  const Plus = icon("plus");
  const html = renderToStaticMarkup(
    <PageContext.Provider value={{ path: "/", icons: "/static/build/icons-X.svg" }}>
      <Plus size={16} className="extra" />
      <Plus aria-label="Adicionar" />
    </PageContext.Provider>,
  );
  assert.equal(
    html,
    '<svg xmlns="http://www.w3.org/2000/svg" width="16" height="16" viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round" class="lucide lucide-plus extra" aria-hidden="true"><use href="/static/build/icons-X.svg#plus"></use></svg>' +
      '<svg xmlns="http://www.w3.org/2000/svg" width="24" height="24" viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round" class="lucide lucide-plus" aria-label="Adicionar"><use href="/static/build/icons-X.svg#plus"></use></svg>',
  );
});
