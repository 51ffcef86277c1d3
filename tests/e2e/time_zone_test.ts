import assert from "node:assert/strict";
import { createCompany } from "../helpers/app.ts";
import { withBrowser } from "../helpers/browser.ts";
import { eventually } from "../helpers/eventually.ts";
import { connectSimulator } from "../whatsapp/helpers.ts";
import { createCampaign, saveSettings, seedList } from "../campaigns/helpers.ts";
import { dispatchTick } from "../../server/campaigns/dispatcher.ts";
import { addContact } from "../helpers/tickets.ts";

/**
 * Issue 24 item 6: one time-zone rule, the company's (setting timeZone, default
 * America/Sao_Paulo), for typing and showing times, whatever the browser's zone. A browser in
 * Tokyo (12 hours ahead of São Paulo) types a campaign for 23:42: it is listed 23:42, stored as
 * 23:42 in São Paulo (02:42 UTC the next day) and sent then, not before; a schedule likewise.
 */
Deno.test("time zone - a browser in Tokyo types a campaign for 23:42: listed 23:42, sent at 23:42 São Paulo time", () =>
  withBrowser(async ({ t, page, url, loginAs, pageErrors }) => {
    // The test clock: 2026-11-22 09:00 in São Paulo (12:00 UTC).
    const c = await createCompany(t, "Acme");
    t.deps.simulator.ackDelayMs = 5;
    const wid = await connectSimulator(t, c);
    await saveSettings(t, c, { messageInterval: 0, longerIntervalAfter: 0, greaterInterval: 0 });
    const listId = await seedList(t, c, 2);
    const campaign = await createCampaign(t, c, { whatsappId: wid, contactListId: listId });

    await loginAs(page, c.admin, { expectPath: "/" });
    await page.goto(`${url}/campaigns`);
    const row = page.getByTestId("campaign-row").filter({ hasText: "Promoção" });
    await row.getByRole("button", { name: "Editar" }).click();
    const dialog = page.getByRole("dialog");
    // The record is read first (its values replace the form's).
    await eventually(async () =>
      (await dialog.locator("input[name=name]").inputValue()) === "Promoção"
    );
    await dialog.getByLabel("Agendamento").fill("2026-11-22T23:42");
    await dialog.getByRole("button", { name: "Salvar", exact: true }).click();
    // Listed as typed, in the Portuguese date format.
    await eventually(async () => {
      const text = await row.innerText();
      if (!text.includes("22/11/2026, 23:42")) throw new Error(text);
      return true;
    });
    const stored = await t.deps.db.selectFrom("campaigns").select(["scheduledAt", "status"])
      .where("id", "=", campaign.id).executeTakeFirstOrThrow();
    assert.deepEqual(stored, { scheduledAt: "2026-11-23T02:42:00.000Z", status: "PROGRAMADA" });
    // Opened again, the dialog shows the same 23:42.
    await row.getByRole("button", { name: "Editar" }).click();
    await eventually(async () =>
      (await dialog.getByLabel("Agendamento").inputValue()) === "2026-11-22T23:42"
    );
    await page.keyboard.press("Escape");

    // What the simulator's phones received (read from the database: the clock moves 14 hours).
    const sent = () =>
      t.deps.db.selectFrom("simulator_sent").select("body").where("whatsappId", "=", wid)
        .execute();
    // Sent at 23:42 São Paulo time: nothing a minute before, both messages then.
    t.clock.set("2026-11-23T02:41:00.000Z");
    await dispatchTick(t.deps);
    await t.deps.sessions.outbox.idle();
    assert.deepEqual(await sent(), []);
    t.clock.set("2026-11-23T02:42:00.000Z");
    await eventually(async () => {
      await dispatchTick(t.deps);
      await t.deps.sessions.outbox.idle();
      return (await sent()).length === 2;
    });
    assert.deepEqual(pageErrors, []);
  }, { timezoneId: "Asia/Tokyo" }));

Deno.test("time zone - a schedule typed for 23:42 in a Tokyo browser is 23:42 on the company's clock", () =>
  withBrowser(async ({ t, page, url, loginAs, pageErrors }) => {
    const c = await createCompany(t, "Acme");
    const contactId = await addContact(t, c.id, "Joana", "5511988887777");
    await loginAs(page, c.admin, { expectPath: "/" });
    await page.goto(`${url}/schedules?contactId=${contactId}`);
    const dialog = page.getByRole("dialog");
    await dialog.getByTestId("schedule-body").fill("Lembrete da consulta");
    await dialog.getByTestId("schedule-at").fill("2026-11-22T23:42");
    await dialog.getByTestId("schedule-submit").click();
    const row = page.getByRole("row").filter({ hasText: "Lembrete" });
    await row.getByText("22/11/2026 23:42:00").waitFor();
    const stored = await t.deps.db.selectFrom("schedules").select("sendAt")
      .where("companyId", "=", c.id).executeTakeFirstOrThrow();
    assert.equal(stored.sendAt, "2026-11-23T02:42:00.000Z");
    assert.deepEqual(pageErrors, []);
  }, { timezoneId: "Asia/Tokyo" }));
