import assert from "node:assert/strict";
import { createCompany, createUser } from "../helpers/app.ts";
import { withBrowser } from "../helpers/browser.ts";
import { eventually } from "../helpers/eventually.ts";
import { addQueue } from "../helpers/tickets.ts";
import { connectSimulator, phoneSends } from "../whatsapp/helpers.ts";
import { FakePushService, PushDevice } from "../fakes/push_service.ts";
import { pushCapture } from "../../server/push/capture.ts";
import { sendDuePushes } from "../../server/push/send.ts";
import { STORAGE } from "../../islands/lib/storage.ts";

/**
 * Issue 42 in Chromium: the page registers /sw.js; the server's push for a waiting ticket (sent to
 * a fake push service and decrypted there with the device's keys) is delivered to the service
 * worker through the DevTools protocol (ServiceWorker.deliverPushMessage); the worker shows it
 * (registration.getNotifications() reads it back, headless has no screen), and its click handler
 * opens the ticket in the open window.
 */

/** static/sw.js's own function (a global of the worker), called there by `worker.evaluate`. */
declare function notificationOf(push: unknown): {
  title: string;
  options: { body: string; tag: string; data: { url: string; kind: string } };
};

Deno.test("push in the browser - the service worker shows the server's push and its click opens the ticket", async () => {
  const service = new FakePushService();
  try {
    await withBrowser(async ({ t, page, context, url, loginAs, pageErrors }) => {
      const c = await createCompany(t, "Alpha");
      const queueId = await addQueue(t, c.id, "Vendas");
      const ana = await createUser(t, c.id, {
        name: "Ana",
        email: "ana@alpha.test",
        queueIds: [queueId],
      });
      const whatsappId = await connectSimulator(t, c, { queueIds: [queueId] });
      await loginAs(page, ana);
      // The head script registered the worker; it controls the page once active (clients.claim).
      await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
      // DevTools' view of the service workers: the registration's id.
      const cdp = await context.newCDPSession(page);
      const registrations = new Map<string, string>();
      cdp.on("ServiceWorker.workerRegistrationUpdated", (e) => {
        for (const r of e.registrations) registrations.set(r.scopeURL, r.registrationId);
      });
      await cdp.send("ServiceWorker.enable");
      const registrationId = await eventually(() => registrations.get(`${url}/`));
      const manifest = await page.evaluate(() =>
        (document.querySelector("link[rel=manifest]") as HTMLLinkElement).href
      );
      assert.equal(manifest, `${url}/manifest.webmanifest`);

      // The device subscribes as the page would (its session's token), with the test's keys.
      const token = await page.evaluate((key) => localStorage.getItem(key), STORAGE.token);
      const device = new PushDevice(service);
      const res = await t.request("POST", "/api/push/subscriptions", {
        token: token!,
        body: { ...device.subscription(), language: "pt" },
      });
      assert.equal(res.status, 201, await res.clone().text());

      const got = await phoneSends(t, c.admin.token, whatsappId, {
        from: "5511955550000",
        name: "Zé Cliente",
        body: "quero um orçamento",
      });
      await pushCapture(t.deps.events)!.idle();
      await sendDuePushes(t.deps);
      const [sent] = service.to(device);
      const data = device.decrypt(sent.body);
      const ticket = await t.deps.db.selectFrom("tickets").select("uuid")
        .where("companyId", "=", c.id).where("id", "=", got.ticketId!).executeTakeFirstOrThrow();

      // The page listens to its worker as any open window may (the worker tells them of a push).
      await page.evaluate(() => {
        const heard: unknown[] = [];
        (window as unknown as { heard: unknown[] }).heard = heard;
        navigator.serviceWorker.addEventListener("message", (e) => heard.push(e.data));
      });
      await cdp.send("ServiceWorker.deliverPushMessage", { origin: url, registrationId, data });
      const heard = await eventually(async () => {
        const list = await page.evaluate(() => (window as unknown as { heard: unknown[] }).heard);
        return list.length > 0 ? list : undefined;
      });
      const push = {
        kind: "newTicket",
        title: "Novo atendimento: Zé Cliente",
        body: "Aguardando na fila Vendas",
        url: `/tickets/${ticket.uuid}`,
        tag: `ticket-${got.ticketId}`,
      };
      assert.deepEqual(heard, [{ type: "push", push }]);

      // What the worker asks the system to show for it. (The headless shell refuses every
      // notification: Notification.permission is "denied" there whatever the permission API says,
      // so registration.getNotifications() stays empty; the click is dispatched by hand.)
      const worker = context.serviceWorkers()[0] ?? await context.waitForEvent("serviceworker");
      const shown = await worker.evaluate((p) => notificationOf(p), push);
      assert.equal(shown.title, push.title);
      assert.deepEqual(shown.options.data, { url: push.url, kind: "newTicket" });
      assert.equal(shown.options.tag, push.tag);
      // The click: the worker's own notificationclick listener, given that notification.
      await worker.evaluate((data) => {
        const click = new Event("notificationclick");
        Object.assign(click, {
          notification: { data, close() {} },
          waitUntil(done: Promise<unknown>) {
            done.catch(() => {});
          },
        });
        self.dispatchEvent(click);
      }, shown.options.data);
      await page.waitForURL(`${url}/tickets/${ticket.uuid}`);
      // The ticket's conversation (a whole page load: generous on a busy machine).
      await page.getByText("quero um orçamento").filter({ visible: true }).first()
        .waitFor({ timeout: 60_000 });
      assert.deepEqual(pageErrors, []);
    }, { env: { INTEGRATIONS_ALLOW_PRIVATE_URLS: "true" }, serviceWorkers: "allow" });
  } finally {
    await service.close();
  }
});
