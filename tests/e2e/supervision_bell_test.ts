import assert from "node:assert/strict";
import { createCompany, createUser } from "../helpers/app.ts";
import { withBrowser } from "../helpers/browser.ts";

/**
 * Issue 43 item 6: an admin marking a user supervisor of a queue (or taking the mark away, or
 * deleting the queue) reaches that user's open page at once: the service-target bell appears
 * (and goes) without a reload.
 */
Deno.test("supervision bell - becoming a queue's supervisor shows the target bell live; losing it hides it", () =>
  withBrowser(async ({ t, page, url, loginAs, pageErrors }) => {
    const c = await createCompany(t, "Alpha");
    const created = await t.request("POST", "/api/queue", {
      token: c.admin.token,
      body: { name: "Vendas", color: "#0EA5E9", schedules: [] },
    });
    assert.equal(created.status, 201, await created.clone().text());
    const queue = await created.json() as { id: number };
    const bia = await createUser(t, c.id, {
      name: "Bia Atendente",
      email: "bia@alpha.test",
      queueIds: [queue.id],
    });
    await loginAs(page, bia);
    await page.goto(`${url}/tickets`);
    await page.getByTestId("tab-open").waitFor();
    await page.getByTestId("bell-announcements").waitFor();
    assert.equal(await page.getByTestId("bell-sla").count(), 0);

    const mark = (ids: number[]) =>
      t.request("PUT", `/api/users/${bia.id}`, {
        token: c.admin.token,
        body: { supervisedQueueIds: ids },
      });
    assert.equal((await mark([queue.id])).status, 200);
    await page.getByTestId("bell-sla").waitFor();
    assert.equal((await mark([])).status, 200);
    await page.getByTestId("bell-sla").waitFor({ state: "detached" });
    // Deleting the queue she supervises ends her supervision too: the bell goes, no reload.
    assert.equal((await mark([queue.id])).status, 200);
    await page.getByTestId("bell-sla").waitFor();
    const removed = await t.request("DELETE", `/api/queue/${queue.id}`, { token: c.admin.token });
    assert.equal(removed.status, 204);
    await page.getByTestId("bell-sla").waitFor({ state: "detached" });
    assert.deepEqual(pageErrors, []);
  }));
