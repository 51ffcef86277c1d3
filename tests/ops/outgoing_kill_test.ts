import assert from "node:assert/strict";
import { eventually } from "../helpers/eventually.ts";
import { ServerOnDisk } from "../helpers/server_on_disk.ts";
import { WebhookReceiver } from "../fakes/webhook_receiver.ts";

/**
 * Issue 43 item 2(c): a real server process (main.ts) dies (SIGKILL, at CRASH_AFTER_COMMIT: right
 * after the commit of a change, before any listener ran). The change's webhooks are delivered
 * after the restart, once each, under the ids of the notes written with it
 * (server/events/outgoing.ts): the events were not lost with the process's memory.
 */
const ADMIN = { email: "root@outgoing.test", password: "root-password" };
const BOUND_MS = 60_000;
const PRIVATE_URLS = { INTEGRATIONS_ALLOW_PRIVATE_URLS: "true" };

type Note = { eventKey: string; event: string; capturedAt: string | null };

/** A webhook of the company for `events`, its secret given to the receiver. */
async function subscribe(
  box: ServerOnDisk,
  token: string,
  receiver: WebhookReceiver,
  events: string[],
) {
  const hook = await box.call("POST", "/api/webhooks", token, {
    name: "ERP",
    url: receiver.url,
    events,
  });
  assert.equal(hook.status, 201, JSON.stringify(hook.body));
  receiver.secret = hook.body.secret;
}

/** After the restart: `count` deliveries arrive, every note closes, and nothing more is queued. */
async function deliveredAfterRestart(box: ServerOnDisk, receiver: WebhookReceiver, count: number) {
  await box.start({ ...PRIVATE_URLS, OUTGOING_GRACE_MS: "0" });
  const delivered = await eventually(() => {
    const accepted = receiver.accepted();
    return accepted.length >= count ? accepted : undefined;
  }, { timeoutMs: BOUND_MS, what: `${count} webhooks delivered after the restart` });
  await eventually(
    () => box.count("SELECT count(*) AS n FROM outgoing_events WHERE capturedAt IS NULL") === 0,
    { timeoutMs: BOUND_MS, what: "the notes closed" },
  );
  // Once: one queue row and one request per event (another tick finds the notes closed).
  assert.equal(box.count("SELECT count(*) AS n FROM webhook_deliveries"), count);
  assert.equal(receiver.received.length, count);
  assert.ok(delivered.every((d) => d.signatureValid));
  return delivered;
}

Deno.test("outgoing - SIGKILL right after a contact's commit: its webhook is delivered once after the restart", async () => {
  const box = await ServerOnDisk.make("outgoing-kill", ADMIN);
  const receiver = new WebhookReceiver();
  try {
    await box.start({ ...PRIVATE_URLS, CRASH_AFTER_COMMIT: "contact.created" });
    const token = await box.login();
    await subscribe(box, token, receiver, ["contact.created"]);
    const made = box.call("POST", "/api/contacts", token, {
      name: "Cliente Perdido",
      number: "5511955550000",
    });
    await assert.rejects(made, "the process died before answering");
    assert.equal((await box.ended()).signal, "SIGKILL");
    const contacts = box.query<{ id: number }>(
      "SELECT id FROM contacts WHERE name = ?",
      "Cliente Perdido",
    );
    assert.equal(contacts.length, 1, "the contact was committed");
    assert.equal(box.count("SELECT count(*) AS n FROM webhook_deliveries"), 0);
    const [note] = box.query<Note>(
      "SELECT eventKey, event, capturedAt FROM outgoing_events WHERE event = 'contact.created'",
    );
    assert.equal(note.capturedAt, null, "the note is open: nobody queued the event");

    const [delivered] = await deliveredAfterRestart(box, receiver, 1);
    assert.equal(delivered.eventId, note.eventKey);
    assert.equal(delivered.body.event, "contact.created");
    assert.equal((delivered.body.data.contact as { id: number }).id, contacts[0].id);
  } finally {
    await box.dispose();
    await receiver.close();
  }
});

Deno.test("outgoing - SIGKILL right after the send API's commit: its contact, message and ticket webhooks arrive once each", async () => {
  const box = await ServerOnDisk.make("outgoing-kill-send", ADMIN);
  const receiver = new WebhookReceiver();
  try {
    await box.start({ ...PRIVATE_URLS, CRASH_AFTER_COMMIT: "contact.created" });
    const token = await box.login();
    const whatsappId = await box.simulatorConnection(token);
    const apiToken = (await box.call("POST", `/api/whatsapp/${whatsappId}/token`, token)).body
      .token;
    await subscribe(box, token, receiver, ["contact.created", "message.created", "ticket.created"]);
    // A number the company never saw: the send makes its contact and ticket, in one commit.
    const sent = box.call("POST", "/api/messages/send", apiToken, {
      number: "5511944443333",
      body: "Seu pedido saiu",
    });
    await assert.rejects(sent, "the process died before answering");
    assert.equal((await box.ended()).signal, "SIGKILL");
    const [message] = box.query<{ id: number; ticketId: number; contactId: number }>(
      "SELECT id, ticketId, contactId FROM messages WHERE body = ?",
      "Seu pedido saiu",
    );
    assert.ok(message, "the send was committed");
    const notes = box.query<Note>(
      "SELECT eventKey, event, capturedAt FROM outgoing_events ORDER BY event",
    ).filter((n) => n.event !== "ticket.updated");
    assert.deepEqual(notes.map((n) => [n.event, n.capturedAt]), [
      ["contact.created", null],
      ["message.created", null],
      ["ticket.created", null],
    ]);

    const delivered = await deliveredAfterRestart(box, receiver, 3);
    const byEvent = new Map(delivered.map((d) => [d.body.event, d]));
    for (const note of notes) assert.equal(byEvent.get(note.event)?.eventId, note.eventKey);
    const data = (event: string) => byEvent.get(event)!.body.data as Record<string, { id: number }>;
    assert.equal(data("contact.created").contact.id, message.contactId);
    assert.equal(data("message.created").message.id, message.id);
    assert.equal(data("ticket.created").ticket.id, message.ticketId);
  } finally {
    await box.dispose();
    await receiver.close();
  }
});
