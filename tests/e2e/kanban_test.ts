import assert from "node:assert/strict";
import { createCompany, createUser } from "../helpers/app.ts";
import { type Page, toastShown, toastWith, withBrowser } from "../helpers/browser.ts";
import { addContact, addQueue, addTicket } from "../helpers/tickets.ts";

function lane(page: Page, key: string | number) {
  return page.locator(`[data-testid=kanban-lane][data-lane="${key}"]`);
}

function card(page: Page, key: string | number, ticketId: number) {
  return lane(page, key).locator(`[data-testid=kanban-card][data-ticket-id="${ticketId}"]`);
}

/** The drag-and-drop layer loads once the board shows (issue 33): it is there. */
function dragReady(page: Page) {
  return page.locator("[data-testid=kanban-board][data-drag=ready]").waitFor();
}

/** A pointer drag: press on the card, pass the 5 px activation distance, glide, release. */
async function drag(page: Page, from: ReturnType<typeof card>, to: ReturnType<typeof lane>) {
  await dragReady(page);
  const a = (await from.boundingBox())!;
  const b = (await to.boundingBox())!;
  await page.mouse.move(a.x + a.width / 2, a.y + 12);
  await page.mouse.down();
  await page.mouse.move(a.x + a.width / 2 + 10, a.y + 12, { steps: 2 });
  await page.mouse.move(b.x + b.width / 2, b.y + 80, { steps: 12 });
  await to.and(page.locator("[data-over]")).waitFor();
  await page.mouse.up();
}

Deno.test("kanban page - an admin's kanban tag becomes a lane; a dragged card moves on the attendant's board live, and back by keyboard", () =>
  withBrowser(async ({ t, page, url, loginAs, secondBrowser, pageErrors }) => {
    const c = await createCompany(t, "Acme");
    const queueId = await addQueue(t, c.id, "Vendas");
    const bia = await createUser(t, c.id, {
      name: "Bia Atendente",
      email: "bia@acme.test",
      queueIds: [queueId],
    });
    const contactId = await addContact(t, c.id, "Carlos Cliente", "5511988887777");
    const ticket = await addTicket(t, c.id, {
      contactId,
      queueId,
      status: "open",
      userId: bia.id,
      lastMessage: "Quero um orçamento",
    });

    // The admin makes a kanban tag on /tags.
    await loginAs(page, c.admin, { expectPath: "/" });
    await page.goto(`${url}/tags`);
    await page.getByRole("button", { name: "Nova tag" }).click();
    const dialog = page.getByRole("dialog");
    await dialog.locator("input[name=name]").fill("Orçamento enviado");
    await dialog.getByTestId("tag-kanban").check();
    await dialog.getByTestId("tag-submit").click();
    await toastWith(page, "Tag salva com sucesso!").waitFor();
    const tag = await t.deps.db.selectFrom("tags").select("id").where("companyId", "=", c.id)
      .executeTakeFirstOrThrow();

    // Both boards: the card in 'Em aberto' with its number, contact, phone and last message.
    await page.goto(`${url}/kanban`);
    const other = await secondBrowser();
    await loginAs(other, bia);
    // The kanban switch of the tag dialog is an admin's: an attendant's dialog has none.
    await other.goto(`${url}/tags`);
    await other.getByRole("button", { name: "Nova tag" }).click();
    await other.getByRole("dialog").locator("input[name=name]").waitFor();
    assert.equal(await other.getByTestId("tag-kanban").count(), 0);
    await other.getByRole("dialog").getByRole("button", { name: "Cancelar" }).click();
    await other.goto(`${url}/kanban`);
    for (const p of [page, other]) {
      await lane(p, "open").getByRole("heading", { name: "Em aberto" }).waitFor();
      await lane(p, tag.id).getByRole("heading", { name: "Orçamento enviado" }).waitFor();
      await card(p, "open", ticket.id).waitFor();
    }
    const text = await card(page, "open", ticket.id).innerText();
    for (
      const part of [`#${ticket.id}`, "Carlos Cliente", "+55 11 98888-7777", "Quero um orçamento"]
    ) {
      assert.ok(text.includes(part), `${part} in ${text}`);
    }
    assert.equal(
      await card(page, "open", ticket.id).getByRole("link", { name: "Ver Ticket" })
        .getAttribute("href"),
      `/tickets/${ticket.uuid}`,
    );

    // The admin drags it into the lane: the toast, the tag stored, Bia's board follows live.
    await drag(page, card(page, "open", ticket.id), lane(page, tag.id));
    await toastShown(page, "Ticket Tag Adicionado com Sucesso!");
    await card(page, tag.id, ticket.id).waitFor();
    await card(other, tag.id, ticket.id).waitFor();
    await card(other, "open", ticket.id).waitFor({ state: "detached" });
    const stored = await t.deps.db.selectFrom("ticket_tags").select("tagId")
      .where("ticketId", "=", ticket.id).execute();
    assert.deepEqual(stored, [{ tagId: tag.id }]);

    // Bia moves it back with the keyboard: focus, Space picks up, Left to 'Em aberto', Space.
    // Each key waits for what it shows: the card lifted, then the target lane highlighted.
    const picked = card(other, tag.id, ticket.id);
    await dragReady(other);
    await picked.focus();
    await other.keyboard.press("Space");
    await other.locator("[data-testid=kanban-card][data-dragging]").waitFor();
    // Under load the first key can come before the keyboard sensor listens: press again until
    // the lane shows it is targeted ('Em aberto' is the first lane: more presses stay on it).
    const over = other.locator('[data-testid=kanban-lane][data-lane="open"][data-over]');
    for (let press = 1;; press++) {
      await other.keyboard.press("ArrowLeft");
      try {
        await over.waitFor({ timeout: 4000 });
        break;
      } catch (error) {
        if (press === 5) throw error;
      }
    }
    await other.keyboard.press("Space");
    await toastShown(other, "Ticket Tag Removido!");
    await card(other, "open", ticket.id).waitFor();
    await card(page, "open", ticket.id).waitFor();
    await card(page, tag.id, ticket.id).waitFor({ state: "detached" });
    const after = await t.deps.db.selectFrom("ticket_tags").selectAll()
      .where("ticketId", "=", ticket.id).execute();
    assert.deepEqual(after, []);

    assert.deepEqual(pageErrors, []);
  }));
