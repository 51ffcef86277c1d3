import assert from "node:assert/strict";
import { createCompany, type TestApp } from "../helpers/app.ts";
import { eventually } from "../helpers/eventually.ts";
import { withBrowser } from "../helpers/browser.ts";
import { type FakeGraph, messagesPost, startFakeGraph } from "../fakes/graph.ts";
import { APP_SECRET, cloudBody, ORDER_READY } from "../whatsapp/cloud_helpers.ts";

const ANA = "5511988887777";

/** Ana writes through Meta's signed webhook, `hoursAgo` before the app's clock. */
async function anaWrites(
  t: TestApp,
  graph: FakeGraph,
  path: string,
  id: string,
  hoursAgo: number,
  extra: Record<string, unknown> = {},
) {
  const at = Math.floor((t.clock.now().getTime() - hoursAgo * 3600_000) / 1000);
  const signed = await graph.webhook(
    messagesPost(graph.phoneNumberId, {
      contacts: [{ profile: { name: "Ana" }, wa_id: ANA }],
      messages: [{
        from: ANA,
        id,
        timestamp: String(at),
        type: "text",
        text: { body: id },
        ...extra,
      }],
    }),
    APP_SECRET,
  );
  const res = await t.request("POST", path, { body: signed.body, headers: signed.headers });
  assert.equal(res.status, 200);
}

Deno.test("tickets page - a Cloud API chat past 24 hours says why free text is closed and sends a template; the contact's reply reopens free text; the ad she came from shows; a reaction goes", async () => {
  const graph = startFakeGraph();
  graph.templates.push(ORDER_READY);
  try {
    await withBrowser(async ({ t, page, url, loginAs, pageErrors }) => {
      const c = await createCompany(t, "Alpha");
      const created = await (await t.request("POST", "/api/whatsapp", {
        token: c.admin.token,
        body: cloudBody(graph),
      })).json();
      const path = new URL(created.cloud.webhookUrl).pathname;
      const synced = await t.request("POST", `/api/whatsapp/${created.id}/templates/sync`, {
        token: c.admin.token,
      });
      assert.equal(synced.status, 200);
      // She came from an ad (Click-to-WhatsApp): the chat says which.
      await anaWrites(t, graph, path, "wamid.ONTEM", 25, {
        referral: {
          source_type: "ad",
          source_url: "https://fb.me/anuncio-42",
          headline: "Pizza em dobro às terças",
        },
      });
      const ticket = await eventually(() =>
        t.deps.db.selectFrom("tickets").select(["id", "uuid"]).where("companyId", "=", c.id)
          .executeTakeFirst()
      );
      const accepted = await t.request("PUT", `/api/tickets/${ticket.id}`, {
        token: c.admin.token,
        body: { action: "accept" },
      });
      assert.equal(accepted.status, 200);

      await loginAs(page, c.admin, { expectPath: "/" });
      await page.goto(`${url}/tickets/${ticket.uuid}`);
      const closed = page.getByTestId("window-closed");
      await closed.getByText("Passaram-se mais de 24 horas desde a última mensagem do contato")
        .waitFor();
      assert.equal(await page.getByTestId("message-text").count(), 0);
      const ad = page.getByTestId("ticket-referral");
      await ad.getByText("Veio de um anúncio").waitFor();
      await ad.getByText("Pizza em dobro às terças").waitFor();
      assert.equal(
        await ad.getByRole("link", { name: "Ver anúncio" }).getAttribute("href"),
        "https://fb.me/anuncio-42",
      );

      await closed.locator("[data-field=template] button").click();
      await page.getByRole("option", { name: "pedido_pronto (pt_BR)" }).click();
      assert.equal(await closed.locator("input[name=variable-1]").inputValue(), "Ana");
      await closed.locator("input[name=variable-2]").fill("42");
      await closed.getByTestId("template-preview")
        .filter({ hasText: "Olá Ana, seu pedido 42 está pronto." }).waitFor();
      await closed.getByTestId("send-template").click();
      await page.getByTestId("ticket-view").getByText("Olá Ana, seu pedido 42 está pronto.")
        .waitFor();
      const sent = await eventually(() => graph.sends().find((b) => b.type === "template"));
      assert.deepEqual((sent.template as { name: string }).name, "pedido_pronto");
      assert.equal(sent.to, ANA);

      // Ana answers: the composer is free text again.
      await anaWrites(t, graph, path, "wamid.AGORA", 0);
      const input = page.getByTestId("message-text");
      await input.waitFor();
      await input.fill("De nada!");
      await page.getByTestId("send").click();
      await eventually(() =>
        graph.sends().find((b) =>
          (b.text as { body?: string } | undefined)?.body?.includes("De nada!")
        )
      );
      assert.equal(await closed.count(), 0);

      // The attendant reacts to Ana's message from its menu: shown on it, sent to Meta.
      const ana = page.getByTestId("messages").locator(".mb-row").filter({
        hasText: "wamid.AGORA",
      });
      await ana.getByTestId("message-menu").click();
      await page.getByRole("menuitem", { name: "Reagir 👍" }).click();
      await ana.getByTestId("message-reactions").getByText("👍").waitFor();
      const reaction = await eventually(() => graph.sends().find((b) => b.type === "reaction"));
      assert.deepEqual(reaction.reaction, { message_id: "wamid.AGORA", emoji: "👍" });
      assert.deepEqual(pageErrors, []);
    }, { env: { WHATSAPP_CLOUD_API_URL: graph.apiUrl } });
  } finally {
    await graph.close();
  }
});
