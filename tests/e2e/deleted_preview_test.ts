import assert from "node:assert/strict";
import { createCompany } from "../helpers/app.ts";
import { withBrowser } from "../helpers/browser.ts";
import { connectSimulator, phoneSends } from "../whatsapp/helpers.ts";

/**
 * Issue 43 item 6: a contact deleting for everyone the newest message of a conversation takes its
 * text out of the list at once: the item shows "Mensagem apagada" (the reader's language), not
 * the deleted words; so do the tickets bell and the kanban card.
 */
Deno.test("deleted preview - the newest message deleted for everyone leaves the list's preview, live", () =>
  withBrowser(async ({ t, page, url, loginAs, pageErrors }) => {
    const c = await createCompany(t, "Alpha");
    const whatsappId = await connectSimulator(t, c);
    const delivery = await phoneSends(t, c.admin.token, whatsappId, {
      from: "5511988887777",
      name: "Maria",
      body: "Meu cartão é 1234",
    });
    await loginAs(page, c.admin);
    await page.goto(`${url}/tickets`);
    await page.getByTestId("tab-open").waitFor();
    await page.getByTestId("subtab-pending").click();
    const item = page.getByTestId("list-pending").getByTestId("ticket-item").filter({
      hasText: "Maria",
    });
    await item.getByText("Meu cartão é 1234").waitFor();

    const revoked = await t.request("POST", `/api/simulator/${whatsappId}/revoke`, {
      token: c.user.token,
      body: { from: "5511988887777", id: delivery.wid },
    });
    assert.equal(revoked.status, 200, await revoked.clone().text());
    await item.getByTestId("ticket-last-deleted").getByText("Mensagem apagada").waitFor();
    assert.equal(await item.getByText("Meu cartão é 1234").count(), 0);

    // The bell's preview of the unread ticket, then the board's card, say so too.
    await page.getByTestId("bell-tickets").click();
    const note = page.locator(".popover-item", { hasText: "Maria" });
    await note.getByTestId("bell-ticket-deleted").getByText("Mensagem apagada").waitFor();
    assert.equal(await note.getByText("Meu cartão é 1234").count(), 0);
    await page.goto(`${url}/kanban`);
    const card = page.getByTestId("kanban-card").filter({ hasText: "Maria" });
    await card.getByTestId("kanban-card-deleted").getByText("Mensagem apagada").waitFor();
    assert.equal(await card.getByText("Meu cartão é 1234").count(), 0);
    assert.deepEqual(pageErrors, []);
  }));
