import assert from "node:assert/strict";
import { twoCompanies, withApp } from "../helpers/app.ts";
import { type Received, WebhookReceiver } from "../fakes/webhook_receiver.ts";
import { eventually } from "../helpers/eventually.ts";
import { connectSimulator, phoneSends } from "../whatsapp/helpers.ts";
import { WEBHOOK_EVENTS } from "../../contract/webhook_types.ts";
import { webhookCapture } from "../../server/webhooks/capture.ts";
import { deliverDue } from "../../server/webhooks/delivery.ts";

/**
 * One day of a company, as its webhook receiver sees it: every delivery, in the order the events
 * happened (the delivery ids), with its key fields. Whoever makes the change (the API, a
 * WhatsApp message, an attendant, the outbox, the phone) raises the same events.
 */
type Contact = { id: number; name: string; number: string };
type Ticket = { id: number; status: string; userId: number | null; contact: Contact };
type Message = { body: string; fromMe: boolean; ack: number };

function summary(r: Received): unknown[] {
  const { contact, ticket, message } = r.body.data as {
    contact?: Contact;
    ticket?: Ticket;
    message?: Message;
  };
  if (message) return [r.event, message.body, message.fromMe, message.ack, ticket!.id];
  if (ticket) return [r.event, ticket.id, ticket.status, ticket.userId, ticket.contact.name];
  return [r.event, contact!.name, contact!.number];
}

Deno.test("webhooks - a scripted day: API contact, WhatsApp contact made and renamed, ticket accepted and closed, messages in and out, a spreadsheet import", () =>
  withApp(async (t) => {
    const receiver = new WebhookReceiver();
    try {
      const { a, b } = await twoCompanies(t);
      // The phone's acks come when the test reads the message (below), not on a timer.
      t.deps.simulator.ackDelayMs = 3_600_000;
      const hook = await t.request("POST", "/api/webhooks", {
        token: a.admin.token,
        body: { name: "ERP", url: receiver.url, events: [...WEBHOOK_EVENTS] },
      });
      assert.equal(hook.status, 201, await hook.clone().text());
      receiver.secret = (await hook.json()).secret;
      const token = a.admin.token;

      const created = await t.request("POST", "/api/contacts", {
        token,
        body: { name: "Loja Centro", number: "5513912344321" },
      });
      assert.equal(created.status, 201, await created.clone().text());
      const whatsappId = await connectSimulator(t, a);
      // Company B's day happens too: none of it reaches company A's receiver.
      await t.request("POST", "/api/contacts", {
        token: b.admin.token,
        body: { name: "Outra", number: "5513912349999" },
      });

      const phone = "5511988887777";
      const first = await phoneSends(t, token, whatsappId, { from: phone, body: "Oi" });
      assert.equal(first.status, 201, JSON.stringify(first));
      const ticketId = first.ticketId!;
      // The same person again, now with their WhatsApp name: the contact is renamed.
      const second = await phoneSends(t, token, whatsappId, {
        from: phone,
        name: "Maria",
        body: "Sou a Maria",
      });
      assert.equal(second.ticketId, ticketId);

      const accepted = await t.request("PUT", `/api/tickets/${ticketId}`, {
        token,
        body: { status: "open" },
      });
      assert.equal(accepted.status, 200, await accepted.clone().text());
      const sent = await t.request("POST", `/api/messages/${ticketId}`, {
        token,
        body: { body: "Olá, Maria" },
      });
      assert.equal(sent.status, 201, await sent.clone().text());
      const ackOf = async () =>
        (await t.deps.db.selectFrom("messages").select("ack").where("fromMe", "=", 1)
          .where("ticketId", "=", ticketId).executeTakeFirstOrThrow()).ack;
      await eventually(async () => await ackOf() === 1); // the outbox sent it
      const read = await t.request("POST", `/api/simulator/${whatsappId}/read`, {
        token,
        body: { to: phone },
      });
      assert.equal((await read.json()).read, 1);
      await eventually(async () => await ackOf() === 3); // the phone's read receipt
      const closed = await t.request("PUT", `/api/tickets/${ticketId}`, {
        token,
        body: { status: "closed" },
      });
      assert.equal(closed.status, 200, await closed.clone().text());
      // A spreadsheet import: one contact renamed, one made, one unchanged (told nothing).
      const sheet = new FormData();
      sheet.append(
        "file",
        new File(
          [`name,number\nLoja Centro Sul,5513912344321\nJosé,5513977776666\nMaria,${phone}\n`],
          "contatos.csv",
        ),
      );
      const imported = await t.request("POST", "/api/contacts/import", { token, body: sheet });
      assert.equal(imported.status, 200, await imported.clone().text());
      assert.deepEqual(
        { ...await imported.json(), skipped: undefined },
        { total: 3, created: 1, updated: 1, unchanged: 1, skipped: undefined },
      );

      await webhookCapture(t.deps.events)!.idle();
      while (await deliverDue(t.deps) > 0) {
        // every queued delivery is sent once (a batch at a time)
      }
      const got = receiver.accepted();
      assert.ok(got.every((r) => r.signatureValid && r.body.companyId === a.id));
      const day = got.sort((x, y) => Number(x.delivery) - Number(y.delivery)).map(summary);
      const me = a.admin.id;
      assert.deepEqual(day, [
        ["contact.created", "Loja Centro", "5513912344321"],
        ["contact.created", phone, phone],
        ["ticket.created", ticketId, "pending", null, phone],
        ["message.created", "Oi", false, 0, ticketId],
        ["contact.updated", "Maria", phone],
        ["message.created", "Sou a Maria", false, 0, ticketId],
        ["ticket.updated", ticketId, "open", me, "Maria"],
        ["message.created", "Olá, Maria", true, 0, ticketId],
        ["message.updated", "Olá, Maria", true, 1, ticketId],
        ["message.updated", "Olá, Maria", true, 3, ticketId],
        ["ticket.closed", ticketId, "closed", me, "Maria"],
        ["contact.created", "José", "5513977776666"],
        ["contact.updated", "Loja Centro Sul", "5513912344321"],
      ]);
      assert.equal(new Set(got.map((r) => r.eventId)).size, got.length, "each event once");
    } finally {
      await receiver.close();
    }
  }, { INTEGRATIONS_ALLOW_PRIVATE_URLS: "true" }));
