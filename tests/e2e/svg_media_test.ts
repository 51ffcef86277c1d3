import assert from "node:assert/strict";
import { createCompany } from "../helpers/app.ts";
import { type Page, storageItem, withBrowser } from "../helpers/browser.ts";
import { base64, connectSimulator, phoneSends } from "../whatsapp/helpers.ts";

/**
 * Issue 35, finding 2, in a real browser: a contact sends an SVG that, run as a document on our
 * origin, would copy the attendant's token into localStorage's `stolen`. The chat shows it as a
 * file to download; the blob the page makes of it is a download, opened or not; and the pages'
 * policy stops an SVG's script even where a blob of that type is opened on our origin.
 */
const SVG = `<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10">` +
  `<script>localStorage.setItem("stolen", localStorage.getItem("token") || "ran")</script>` +
  `<rect width="10" height="10" fill="red"/></svg>`;

/** Records the object URLs the page makes (and their types), then lets them be made. */
const RECORD_BLOBS = `(() => {
  const make = URL.createObjectURL.bind(URL);
  window.__blobs = [];
  URL.createObjectURL = (blob) => {
    const url = make(blob);
    window.__blobs.push({ url, type: blob.type });
    return url;
  };
})();`;

function blobsOf(page: Page) {
  return page.evaluate(() =>
    (globalThis as unknown as { __blobs: { url: string; type: string }[] }).__blobs
  );
}

Deno.test("svg media - a contact's SVG is a download in the chat and runs no script on our origin", () =>
  withBrowser(async ({ t, page, url, context, loginAs, pageErrors }) => {
    await context.addInitScript(RECORD_BLOBS);
    const c = await createCompany(t, "Alpha");
    const wid = await connectSimulator(t, c);
    const sent = await phoneSends(t, c.admin.token, wid, {
      from: "5511955550051",
      name: "Mallory",
      media: { base64: base64(SVG), mimetype: "image/svg+xml", filename: "promo.svg" },
    });
    const ticket = await t.deps.db.selectFrom("tickets").select("uuid")
      .where("companyId", "=", c.id).where("id", "=", sent.ticketId!).executeTakeFirstOrThrow();
    await loginAs(page, c.admin);
    await page.goto(`${url}/tickets/${ticket.uuid}`);
    const messages = page.getByTestId("messages");
    // Shown either way (a picture before issue 35), then: not a picture.
    await messages.getByTestId("message-image").or(messages.getByText("promo.svg")).waitFor();
    assert.equal(await messages.getByTestId("message-image").count(), 0, "not shown as a picture");

    // Downloading it gives the file, typed as a download, without rendering it anywhere.
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      messages.getByTestId("message-download").click(),
    ]);
    assert.equal(download.suggestedFilename(), "promo.svg");
    assert.equal(await Deno.readTextFile((await download.path())!), SVG);
    const [blob] = await blobsOf(page);
    assert.equal(blob.type, "application/octet-stream");

    // Opened in a tab (what 'open image in new tab' did), the blob is a download, not a page.
    const tab = await context.newPage();
    const [again] = await Promise.all([
      tab.waitForEvent("download"),
      tab.goto(blob.url).catch(() => {}), // a navigation that becomes a download is "aborted"
    ]);
    assert.equal(again.suggestedFilename().length > 0, true);
    await tab.close();

    // Even a blob typed as SVG, opened from a page of ours (window.open, as a page's link or
    // 'open in new tab' would), keeps the page's policy: its script is refused. (Loosen
    // script-src in routes/pages/csp.ts and this tab copies the token.)
    const typed = await page.evaluate(
      (svg) => URL.createObjectURL(new Blob([svg], { type: "image/svg+xml" })),
      SVG,
    );
    const [svgTab] = await Promise.all([
      context.waitForEvent("page"),
      page.evaluate((u) => void globalThis.open(u, "_blank"), typed),
    ]);
    await svgTab.locator("rect").waitFor({ state: "attached" }); // parsed past the script
    await svgTab.close();

    assert.equal(await storageItem(page, "stolen"), null, "no SVG script ran on our origin");
    // The refusal may reach the tab's console as a CSP report; nothing else may.
    assert.deepEqual(pageErrors.filter((e) => !/Content Security Policy/.test(e)), []);
  }));
