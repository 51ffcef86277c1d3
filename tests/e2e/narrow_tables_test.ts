import assert from "node:assert/strict";
import { createCompany } from "../helpers/app.ts";
import { type Page, withBrowser } from "../helpers/browser.ts";
import { PHONE, strayScrollbars } from "../helpers/page_audit.ts";

type Locator = ReturnType<Page["locator"]>;

/**
 * The words of an element's text that the browser broke across lines ("R$ 299,9 / 0",
 * "28/12/202 / 6", one letter a line): what a person cannot read. The page-level overflow check
 * misses them, the breakage being inside cells.
 */
function brokenWords(where: Locator): Promise<string[]> {
  return where.evaluate((root) => {
    const broken: string[] = [];
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent ?? "";
      for (const match of text.matchAll(/\S+/g)) {
        const range = document.createRange();
        range.setStart(node, match.index!);
        range.setEnd(node, match.index! + match[0].length);
        const tops = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
        if (tops.size > 1) broken.push(match[0]);
      }
    }
    return broken;
  });
}

/** The element's box lies inside the box of its closest `container` ancestor, sideways. */
function insideSideways(where: Locator, container: string): Promise<string | null> {
  return where.evaluate((el, selector) => {
    const box = el.getBoundingClientRect();
    const outer = el.closest(selector)!.getBoundingClientRect();
    return box.left >= outer.left - 0.5 && box.right <= outer.right + 0.5
      ? null
      : `${box.left}-${box.right} outside ${outer.left}-${outer.right}`;
  }, container);
}

// Issue 50 item 8: tables at a phone's width, read cell by cell.
Deno.test("tables at 390 px - /audit, /financeiro (every column) and the queue hours' end column readable, no word broken", () =>
  withBrowser(async ({ t, page, url, loginAs, pageErrors }) => {
    const c = await createCompany(t, "Acme");
    const stamp = t.clock.now().toISOString();
    await t.deps.db.insertInto("invoices").values({
      companyId: c.id,
      detail: "Plano mensal completo",
      valueCents: 29990,
      dueDate: "2026-12-28",
      paidAt: null,
      paidByUserId: null,
      paidVia: null,
      provider: null,
      chargeId: null,
      pixPayload: null,
      createdAt: stamp,
      updatedAt: stamp,
    }).execute();
    const changed = await t.request("PUT", `/api/users/${c.user.id}`, {
      token: c.admin.token,
      body: { profile: "admin", name: "Roberta Figueiredo" },
    });
    assert.equal(changed.status, 200);
    await changed.body?.cancel();
    await t.deps.db.updateTable("settings").set({ value: "queue" })
      .where("companyId", "=", c.id).where("key", "=", "scheduleType").execute();

    await page.setViewportSize(PHONE);
    await loginAs(page, c.admin, { expectPath: "/" });

    await page.goto(`${url}/audit`);
    const row = page.getByTestId("audit-row").filter({ hasText: "Alterou um usuário" });
    await row.waitFor();
    assert.deepEqual(await brokenWords(row), []);
    assert.deepEqual(await strayScrollbars(page, "main"), []);

    await page.goto(`${url}/financeiro`);
    const invoice = page.getByTestId("invoice-row").first();
    await invoice.getByText("Plano mensal completo").waitFor();
    assert.deepEqual(await brokenWords(invoice), []);
    // Every column is there, named beside its value; nothing scrolls sideways.
    for (const column of ["Id", "Detalhes", "Valor", "Data Venc.", "Status"]) {
      await invoice.getByText(column, { exact: true }).waitFor();
    }
    await invoice.getByText("R$ 299,90").waitFor();
    assert.deepEqual(await strayScrollbars(page, "main"), []);

    await page.goto(`${url}/queues`);
    await page.getByTestId("queue-add").click();
    const dialog = page.getByRole("dialog", { name: "Adicionar fila" });
    await dialog.getByRole("tab", { name: "Horários de Atendimento" }).click();
    for (const day of ["monday", "saturday"]) {
      for (const part of ["start", "end"]) {
        const input = dialog.getByTestId(`hours-${day}-${part}`);
        await input.waitFor();
        assert.equal(await insideSideways(input, "[role=dialog]"), null, `${day} ${part}`);
        assert.ok(
          await input.evaluate((el) => el.scrollWidth <= el.clientWidth + 1),
          `${day} ${part}: its time shown whole`,
        );
      }
    }
    assert.deepEqual(await brokenWords(dialog.getByTestId("hours-editor")), []);
    // Nothing in the dialog scrolls sideways (the end column is not hidden past its edge).
    assert.deepEqual(
      await dialog.evaluate((root) =>
        [root, ...root.querySelectorAll("*")].filter((el) =>
          el.scrollWidth > el.clientWidth + 1 &&
          ["auto", "scroll"].includes(getComputedStyle(el).overflowX)
        ).map((el) => `${el.className}: ${el.scrollWidth} > ${el.clientWidth}`)
      ),
      [],
    );
    // The end column's own message, when the end comes first, is read whole inside the dialog
    // (it was kept on one line, past the dialog's edge).
    await dialog.getByTestId("hours-monday-start").fill("19:00");
    await dialog.getByTestId("hours-monday-end").fill("07:00");
    await dialog.getByTestId("queue-save").click();
    const problem = dialog.getByText("O fim deve ser depois do início.");
    await problem.waitFor();
    assert.equal(await insideSideways(problem, "[role=dialog]"), null, "the end's message");
    assert.deepEqual(await brokenWords(problem), []);
    assert.deepEqual(await brokenWords(dialog.getByRole("columnheader", { name: "Fim" })), []);
    assert.equal(
      await insideSideways(dialog.getByTestId("hours-monday-end"), "[role=dialog]"),
      null,
    );
    assert.deepEqual(pageErrors, []);
  }));
