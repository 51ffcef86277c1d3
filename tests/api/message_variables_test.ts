import assert from "node:assert/strict";
import { twoCompanies, withApp } from "../helpers/app.ts";
import { eventually } from "../helpers/eventually.ts";
import { connectSimulator, phoneSends, sentBy } from "../whatsapp/helpers.ts";
import { MESSAGE_VARIABLES } from "../../contract/message_variables.ts";

/** Every variable of the one list, as an attendant would write them in a quick answer. */
const EVERY = MESSAGE_VARIABLES.map((v) => `${v}={{${v}}}`).join(" | ");

Deno.test("message variables - a quick answer sent from the composer reaches the phone filled", () =>
  withApp(async (t) => {
    const { a } = await twoCompanies(t);
    const whatsappId = await connectSimulator(t, a);
    const delivery = await phoneSends(t, a.admin.token, whatsappId, {
      from: "5511988887777",
      name: "Maria Souza",
      body: "Oi",
    });
    const ticketId = delivery.ticketId!;
    const accept = await t.request("PUT", `/api/tickets/${ticketId}`, {
      token: a.admin.token,
      body: { action: "accept" },
    });
    assert.equal(accept.status, 200);
    const created = await t.request("POST", "/api/quick-messages", {
      token: a.admin.token,
      body: { shortcode: "tudo", message: `Olá {{ name }}! ${EVERY}`, geral: true },
    });
    assert.equal(created.status, 201, await created.clone().text());
    // The composer puts the answer's text in the input and sends it as typed.
    const list = await (await t.request("GET", "/api/quick-messages/list", {
      token: a.admin.token,
    })).json();
    const answer = list.find((q: { shortcode: string }) => q.shortcode === "tudo");
    const sent = await t.request("POST", `/api/messages/${ticketId}`, {
      token: a.admin.token,
      body: { body: answer.message },
    });
    assert.equal(sent.status, 201, await sent.clone().text());
    const phone = await eventually(async () => {
      const items = await sentBy(t, a.admin.token, whatsappId);
      return items.length === 1 ? items : undefined;
    });
    // The test clock reads 2026-11-22 12:00 UTC: 09:00 in São Paulo.
    const filled = "Olá Maria Souza! firstName=Maria | name=Maria Souza | user=Alpha Admin | " +
      `ms=Bom dia | protocol=20261122090000${ticketId} | date=22/11/2026 | hour=09:00:00`;
    assert.equal(phone[0].body, filled);
    // The ticket's history shows what the contact got.
    const row = await t.deps.db.selectFrom("messages").select("body")
      .where("ticketId", "=", ticketId).where("fromMe", "=", 1).executeTakeFirstOrThrow();
    assert.equal(row.body, filled);
  }));
