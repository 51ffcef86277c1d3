import type { Page } from "../helpers/packages.ts";

const SCRIPTS = "**/static/build/**/*.js";

/**
 * A slow network for one tab: every page script answers `ms` late (a fake condition, like a fake
 * service's slow answer). Returns the way back to a normal network.
 */
export async function slowScripts(page: Page, ms: number): Promise<() => Promise<void>> {
  await page.route(SCRIPTS, async (route) => {
    await new Promise((resolve) => setTimeout(resolve, ms));
    await route.continue();
  });
  return () => page.unroute(SCRIPTS);
}
