import assert from "node:assert/strict";
import { createCompany, createUser } from "../helpers/app.ts";
import { type Page, withBrowser } from "../helpers/browser.ts";
import { LAPTOP, PHONE } from "../helpers/page_audit.ts";
import { addContact, addQueue, addTicket, addWhatsapp } from "../helpers/tickets.ts";

/**
 * What a person reads of an element: null when it is drawn whole (a size, inside the window, no
 * ellipsis of its own, not cut by an ancestor that hides its overflow), else what is wrong.
 */
function shownWhole(page: Page, testId: string) {
  return page.getByTestId("ticket-header").getByTestId(testId).evaluate((el) => {
    const r = el.getBoundingClientRect();
    if (r.width < 1 || r.height < 1) return `${r.width}x${r.height}`;
    if (r.left < -0.5 || r.right > innerWidth + 0.5) {
      return `outside the window: ${r.left}-${r.right}`;
    }
    if (el.scrollWidth > el.clientWidth + 1) return `cut: ${el.scrollWidth} > ${el.clientWidth}`;
    // A name given two lines is cut below (line-clamp) when it needs more.
    if (el.scrollHeight > el.clientHeight + 1) {
      return `cut below: ${el.scrollHeight} > ${el.clientHeight}`;
    }
    for (let up = el.parentElement; up && up !== document.body; up = up.parentElement) {
      const style = getComputedStyle(up);
      if (style.overflowX === "visible" && style.overflowY === "visible") continue;
      const a = up.getBoundingClientRect();
      if (
        r.left < a.left - 0.5 || r.right > a.right + 0.5 || r.top < a.top - 0.5 ||
        r.bottom > a.bottom + 0.5
      ) {
        return `cut by ${up.className}: ${r.left}-${r.right} in ${a.left}-${a.right}`;
      }
    }
    return null;
  });
}

// Issue 50 item 3: the header shows the contact's name, the owner and the time left to the target
// at a laptop's and a phone's width; a full name of three or four words too (it takes a second
// line rather than an ellipsis), for a ticket in service and one still waiting.
Deno.test("ticket header - contact name, owner and the SLA badge shown whole at 1366 and 390 px", () =>
  withBrowser(async ({ t, page, url, loginAs, pageErrors }) => {
    const c = await createCompany(t, "Alpha");
    const queueId = await addQueue(t, c.id, "Vendas", "#0EA5E9");
    const beto = await createUser(t, c.id, {
      name: "Beto Atendente",
      email: "beto@alpha.test",
      queueIds: [queueId],
    });
    const whatsappId = await addWhatsapp(t, c.id, "Principal", { isDefault: true });
    const seen = [
      { name: "João Pedro Albuquerque", status: "open" as const, owner: beto.id },
      { name: "Maria Aparecida dos Santos", status: "pending" as const, owner: null },
    ];
    const tickets = [];
    for (const [i, one] of seen.entries()) {
      const contactId = await addContact(t, c.id, one.name, `551198888777${i}`);
      const ticket = await addTicket(t, c.id, {
        contactId,
        whatsappId,
        queueId,
        userId: one.owner,
        status: one.status,
      });
      // The browser counts the badge on its own clock: six hours ahead of it.
      await t.deps.db.updateTable("tickets")
        .set({ resolutionDueAt: new Date(Date.now() + 6 * 3600_000).toISOString() })
        .where("id", "=", ticket.id).execute();
      tickets.push({ ...one, uuid: ticket.uuid });
    }

    await loginAs(page, beto);
    for (const size of [LAPTOP, PHONE]) {
      await page.setViewportSize(size);
      for (const ticket of tickets) {
        await page.goto(`${url}/tickets/${ticket.uuid}`);
        const header = page.getByTestId("ticket-header");
        await header.getByTestId("ticket-contact-name").getByText(ticket.name).waitFor();
        const parts = ["ticket-contact-name", "ticket-sla", "ticket-options"];
        if (ticket.owner) {
          await header.getByTestId("ticket-user").getByText("Atribuído a Beto Atendente").waitFor();
          parts.push("ticket-user");
        }
        await header.getByTestId("ticket-sla").getByText(/^[56]h \d\dm$/).waitFor();
        await page.evaluate(() => document.fonts.ready.then(() => {}));
        for (const part of parts) {
          assert.equal(
            await shownWhole(page, part),
            null,
            `${part} of ${ticket.name} at ${size.width} px`,
          );
        }
      }
    }
    assert.deepEqual(pageErrors, []);
  }));
