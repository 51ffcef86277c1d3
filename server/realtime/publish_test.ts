import assert from "node:assert/strict";
import type { TicketView } from "../tickets/view.ts";
import { Hub } from "./hub.ts";
import { publishMessage, publishTicketUpdate } from "./publish.ts";

function fakeSocket() {
  const sent: { event: string; data: unknown }[] = [];
  return { sent, send: (text: string) => sent.push(JSON.parse(text)), close: () => {} };
}

function ticket(over: Partial<TicketView>): TicketView {
  return {
    id: 7,
    uuid: "u",
    status: "pending",
    contactId: 1,
    contact: { id: 1, name: "Ana", number: "5511", email: "", profilePicUrl: "", isGroup: false },
    userId: null,
    user: null,
    queueId: 10,
    queue: null,
    whatsappId: null,
    whatsapp: null,
    tags: [],
    isGroup: false,
    chatbot: false,
    useIntegration: false,
    integrationId: null,
    promptId: null,
    lastMessage: "",
    unreadMessages: 0,
    companyId: 1,
    createdAt: "",
    updatedAt: "",
    firstResponseDueAt: null,
    resolutionDueAt: null,
    slaBreachedAt: null,
    resolutionPausedAt: null,
    ...over,
  };
}

Deno.test("publish ticket - users get tickets of their queues; admins all; a transfer reaches the old queue", () => {
  const hub = new Hub();
  const admin = fakeSocket(),
    inQueue = fakeSocket(),
    otherQueue = fakeSocket(),
    otherCompany = fakeSocket();
  for (
    const [s, id] of [[admin, { userId: 1, profile: "admin", queueIds: [] }], [inQueue, {
      userId: 2,
      profile: "user",
      queueIds: [10],
    }], [otherQueue, { userId: 3, profile: "user", queueIds: [20] }]] as const
  ) {
    const m = hub.add({ companyId: 1, ...id, queueIds: [...id.queueIds] }, s);
    hub.join(m, { kind: "status", status: "pending" });
  }
  const foreign = hub.add(
    { companyId: 2, userId: 9, profile: "admin", queueIds: [] },
    otherCompany,
  );
  hub.join(foreign, { kind: "status", status: "pending" });

  assert.equal(publishTicketUpdate(hub, ticket({})), 2);
  assert.equal(admin.sent.length, 1);
  assert.equal(inQueue.sent.length, 1);
  assert.equal(otherQueue.sent.length, 0);
  assert.equal(otherCompany.sent.length, 0);
  assert.equal(admin.sent[0].event, "company-1-ticket");

  // transferred from queue 10 to 20: both queues' users hear it, so 10's list can drop it
  assert.equal(
    publishTicketUpdate(hub, ticket({ queueId: 20 }), {
      status: "pending",
      queueId: 10,
      userId: null,
    }),
    3,
  );
  assert.equal(otherQueue.sent.length, 1);
  assert.equal(otherCompany.sent.length, 0);
});

Deno.test("publish message - group messages skip the notification room", () => {
  const hub = new Hub();
  const watcher = fakeSocket();
  const m = hub.add({ companyId: 1, userId: 1, profile: "admin", queueIds: [] }, watcher);
  hub.join(m, { kind: "notification" });
  const message = {
    id: 1,
    wid: "w",
    ticketId: 7,
    contactId: 1,
    body: "oi",
    fromMe: false,
    mediaType: null,
    mediaUrl: null,
    mediaName: null,
    isDeleted: false,
    isEdited: false,
    ack: 0,
    read: false,
    quotedMsg: null,
    createdAt: "",
    updatedAt: "",
  };
  assert.equal(publishMessage(hub, "create", message, ticket({ isGroup: true })), 0);
  assert.equal(publishMessage(hub, "create", message, ticket({})), 1);
  assert.equal(watcher.sent[0].event, "company-1-appMessage");
});
