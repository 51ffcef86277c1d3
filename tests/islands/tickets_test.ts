import assert from "node:assert/strict";
import {
  cutLabel,
  cutName,
  isBlank,
  listTime,
  mmss,
  noteTime,
  parseLocation,
  parseOtherTicket,
  parseVcard,
  quickAnswerQuery,
  signedBody,
} from "../../islands/tickets/format.ts";
import {
  EMPTY_LIST,
  listReducer,
  type ListScope,
  type ListState,
} from "../../islands/tickets/list_state.ts";
import { messagesReducer, timeline } from "../../islands/tickets/messages_state.ts";
import { matchQuickAnswers } from "../../islands/tickets/QuickAnswers.tsx";
import { CONTACT_RULES } from "../../islands/lib/contact/ContactDialog.tsx";
import { check } from "../../contract/validation.ts";
import { defaultConnection } from "../../islands/tickets/NewTicketDialog.tsx";
import { concernsBell, shouldNotify, viewingTicketId } from "../../islands/lib/ticket_notify.ts";
import type { Message, Ticket } from "../../contract/ticket_types.ts";
import { locationBody, vcardBody } from "../../server/whatsapp/inbound/bodies.ts";

function ticket(id: number, patch: Partial<Ticket> = {}): Ticket {
  return {
    id,
    uuid: `u-${id}`,
    status: "pending",
    contactId: 100 + id,
    contact: {
      id: 100 + id,
      name: `Contact ${id}`,
      number: "5511999990000",
      email: "",
      profilePicUrl: "",
      isGroup: false,
    },
    userId: null,
    user: null,
    queueId: 1,
    queue: { id: 1, name: "Sales", color: "#0EA5E9" },
    whatsappId: 1,
    whatsapp: { id: 1, name: "Main", status: "CONNECTED" },
    tags: [],
    isGroup: false,
    chatbot: false,
    useIntegration: false,
    integrationId: null,
    promptId: null,
    companyId: 1,
    lastMessage: "hi",
    unreadMessages: 0,
    createdAt: "2024-05-01T10:00:00.000Z",
    updatedAt: "2024-05-01T10:00:00.000Z",
    firstResponseDueAt: null,
    resolutionDueAt: null,
    slaBreachedAt: null,
    resolutionPausedAt: null,
    ...patch,
  };
}

const ME = 7;
function scope(patch: Partial<ListScope> = {}): ListScope {
  return {
    status: "pending",
    viewer: { userId: ME, isAdmin: false, queueIds: [1], allTicket: false },
    showAll: false,
    queueIds: [1],
    noQueue: true,
    allQueues: false,
    live: "full",
    ...patch,
  };
}

function loaded(s: ListScope, tickets: Ticket[], count = tickets.length): ListState {
  return listReducer(s)(EMPTY_LIST, { type: "page", page: 1, tickets, count, hasMore: false });
}

Deno.test("tickets list - an update of a ticket of a selected queue is added on top, then replaced in place", () => {
  const s = scope();
  const reduce = listReducer(s);
  let state = loaded(s, [ticket(1), ticket(2)]);
  state = reduce(state, { type: "update", ticket: ticket(3) });
  assert.deepEqual(state.tickets.map((t) => t.id), [3, 1, 2]);
  assert.equal(state.count, 3);
  state = reduce(state, { type: "update", ticket: ticket(1, { lastMessage: "changed" }) });
  assert.deepEqual(state.tickets.map((t) => t.id), [3, 1, 2]);
  assert.equal(state.tickets[1].lastMessage, "changed");
  assert.equal(state.count, 3);
});

Deno.test("tickets list - an update leaves the list when its queue is not selected, it is another's, or changed status", () => {
  const s = scope();
  const reduce = listReducer(s);
  let state = loaded(s, [ticket(1), ticket(2), ticket(3)]);
  state = reduce(state, { type: "update", ticket: ticket(1, { queueId: 9 }) });
  assert.deepEqual(state.tickets.map((t) => t.id), [2, 3]);
  state = reduce(state, { type: "update", ticket: ticket(2, { userId: 99 }) });
  assert.deepEqual(state.tickets.map((t) => t.id), [3]);
  state = reduce(state, { type: "update", ticket: ticket(3, { status: "open", userId: ME }) });
  assert.deepEqual(state.tickets, []);
  assert.equal(state.count, 0);
  // Not added either when it does not belong.
  state = reduce(state, { type: "update", ticket: ticket(4, { queueId: 9 }) });
  assert.deepEqual(state.tickets, []);
});

Deno.test("tickets list - show-all keeps other attendants' tickets; mine stay without show-all", () => {
  const all = scope({
    status: "open",
    showAll: true,
    viewer: { userId: ME, isAdmin: true, queueIds: [1], allTicket: false },
  });
  let state = loaded(all, []);
  state = listReducer(all)(state, {
    type: "update",
    ticket: ticket(1, { status: "open", userId: 99 }),
  });
  assert.deepEqual(state.tickets.map((t) => t.id), [1]);
  const mine = scope({ status: "open" });
  state = listReducer(mine)(loaded(mine, []), {
    type: "update",
    ticket: ticket(2, { status: "open", userId: ME }),
  });
  assert.deepEqual(state.tickets.map((t) => t.id), [2]);
});

Deno.test("tickets list - 'no queue' unticked drops queueless tickets from pages and events", () => {
  const s = scope({ noQueue: false });
  let state = loaded(s, [ticket(1), ticket(2, { queueId: null, queue: null })], 2);
  assert.deepEqual(state.tickets.map((t) => t.id), [1]);
  assert.equal(state.count, 1);
  state = listReducer(s)(state, { type: "update", ticket: ticket(3, { queueId: null }) });
  assert.deepEqual(state.tickets.map((t) => t.id), [1]);
});

Deno.test("tickets list - with every queue selected a user's own ticket in another queue stays", () => {
  const s = scope({ status: "open", allQueues: true });
  const state = listReducer(s)(loaded(s, []), {
    type: "update",
    ticket: ticket(1, { status: "open", userId: ME, queueId: 42 }),
  });
  assert.deepEqual(state.tickets.map((t) => t.id), [1]);
});

Deno.test("tickets list - a new message moves the ticket to the top marked unread; updateUnread resets", () => {
  const s = scope();
  const reduce = listReducer(s);
  let state = loaded(s, [ticket(1), ticket(2), ticket(3)]);
  state = reduce(state, { type: "message", ticket: ticket(3), fromMe: false });
  assert.deepEqual(state.tickets.map((t) => t.id), [3, 1, 2]);
  assert.equal(state.tickets[0].unreadMessages, 1);
  state = reduce(state, {
    type: "message",
    ticket: ticket(2, { unreadMessages: 4 }),
    fromMe: false,
  });
  assert.equal(state.tickets[0].unreadMessages, 4);
  state = reduce(state, { type: "unread", ticketId: 2 });
  assert.equal(state.tickets.find((t) => t.id === 2)!.unreadMessages, 0);
  // A message of a ticket that is not listed yet brings it in.
  state = reduce(state, { type: "message", ticket: ticket(8), fromMe: false });
  assert.deepEqual(state.tickets.map((t) => t.id), [8, 2, 3, 1]);
  assert.equal(state.count, 4);
});

Deno.test("tickets list - delete removes; a contact update refreshes its tickets", () => {
  const s = scope();
  const reduce = listReducer(s);
  let state = loaded(s, [ticket(1), ticket(2)]);
  state = reduce(state, {
    type: "contact",
    contact: { id: 101, name: "Renamed", number: "5511999990000" },
  });
  assert.equal(state.tickets[0].contact.name, "Renamed");
  assert.equal(state.tickets[1].contact.name, "Contact 2");
  state = reduce(state, { type: "delete", ticketId: 1 });
  assert.deepEqual(state.tickets.map((t) => t.id), [2]);
  assert.equal(state.count, 1);
});

Deno.test("tickets list - the search tab only replaces and removes", () => {
  const s = scope({ status: undefined, live: "replace" });
  const reduce = listReducer(s);
  let state = loaded(s, [ticket(1)]);
  state = reduce(state, { type: "update", ticket: ticket(2) });
  state = reduce(state, { type: "message", ticket: ticket(3), fromMe: false });
  assert.deepEqual(state.tickets.map((t) => t.id), [1]);
  state = reduce(state, { type: "update", ticket: ticket(1, { status: "closed" }) });
  assert.equal(state.tickets[0].status, "closed");
});

Deno.test("tickets list - later pages append without duplicates", () => {
  const s = scope();
  const reduce = listReducer(s);
  let state = loaded(s, [ticket(1), ticket(2)], 3);
  state = reduce(state, {
    type: "page",
    page: 2,
    tickets: [ticket(2), ticket(3)],
    count: 3,
    hasMore: false,
  });
  assert.deepEqual(state.tickets.map((t) => t.id), [1, 2, 3]);
  assert.equal(state.page, 2);
});

function message(id: number, patch: Partial<Message> = {}): Message {
  const at = `2024-05-01T10:00:${String(id).padStart(2, "0")}.000Z`;
  return {
    id,
    wid: null,
    ticketId: 1,
    contactId: null,
    body: `m${id}`,
    fromMe: false,
    mediaType: null,
    mediaUrl: null,
    mediaName: null,
    isDeleted: false,
    isEdited: false,
    ack: 0,
    read: true,
    quotedMsg: null,
    createdAt: at,
    updatedAt: at,
    ...patch,
  };
}

Deno.test("tickets messages - older pages go above, live messages are kept and updated in place", () => {
  let state = messagesReducer(
    messagesReducer({
      messages: [],
      hasMore: false,
      page: 0,
      loading: true,
      newest: 1,
      focus: null,
    }, { type: "reset" }),
    { type: "upsert", message: message(30) },
  );
  state = messagesReducer(state, {
    type: "page",
    page: 1,
    messages: [message(20), message(21)],
    hasMore: true,
  });
  assert.deepEqual(state.messages.map((m) => m.id), [20, 21, 30]);
  state = messagesReducer(state, {
    type: "page",
    page: 2,
    messages: [message(10), message(11)],
    hasMore: false,
  });
  assert.deepEqual(state.messages.map((m) => m.id), [10, 11, 20, 21, 30]);
  state = messagesReducer(state, { type: "upsert", message: message(21, { ack: 3 }) });
  assert.equal(state.messages[3].ack, 3);
  assert.equal(state.messages.length, 5);
});

Deno.test("tickets messages - day separators and 'conversation ended/started' between tickets", () => {
  const items = timeline([
    message(1, { createdAt: "2024-05-01T10:00:00" }),
    message(2, { createdAt: "2024-05-01T10:01:00", fromMe: true }),
    message(3, { createdAt: "2024-05-02T09:00:00", ticketId: 2 }),
    message(4, { createdAt: "2024-05-02T09:00:05", ticketId: 2 }),
  ]);
  assert.deepEqual(items.map((i) => i.kind), [
    "day",
    "message",
    "message",
    "ended",
    "started",
    "day",
    "message",
    "message",
  ]);
  const firsts = items.filter((i) => i.kind === "message").map((i) =>
    i.kind === "message" && i.first
  );
  assert.deepEqual(firsts, [true, true, true, false]);
});

Deno.test("tickets format - list times, names, labels, timer, notes", () => {
  // On the company's clock (São Paulo, UTC-3), whatever this machine's zone.
  const zone = "America/Sao_Paulo";
  const now = new Date("2024-05-10T18:00:00Z"); // 15:00 there
  assert.equal(listTime("2024-05-10T12:05:00Z", zone, now), "09:05");
  assert.equal(listTime("2024-05-10T02:59:00Z", zone, now), "09/05/2024"); // 23:59 the day before
  assert.equal(listTime("2024-05-10T17:30:00Z", zone, now), "14:30");
  assert.equal(listTime("2024-05-10T17:30:00Z", "Asia/Tokyo", now), "02:30");
  assert.equal(cutName("Maria Aparecida", true), "Maria Apar...");
  assert.equal(cutName("Maria Aparecida", false), "Maria Aparecida");
  assert.equal(cutName("Ana", true), "Ana");
  assert.equal(cutLabel("x".repeat(35)), "x".repeat(35));
  assert.equal(cutLabel("y".repeat(36)), `${"y".repeat(35)}...`);
  assert.equal(mmss(0), "00:00");
  assert.equal(mmss(65.7), "01:05");
  assert.equal(noteTime("2024-01-02T06:04:00Z", zone), "02/01/24 03:04");
});

Deno.test("tickets format - blank text, signature, quick-answer trigger", () => {
  assert.equal(isBlank("   \n "), true);
  assert.equal(isBlank(""), true);
  assert.equal(isBlank(" a "), false);
  assert.equal(signedBody("  hello ", "Ana", true), "*Ana:*\nhello");
  assert.equal(signedBody("  hello ", "Ana", false), "hello");
  assert.equal(quickAnswerQuery("/"), "");
  assert.equal(quickAnswerQuery("hi"), null);
  assert.equal(quickAnswerQuery("/Bo"), "bo");
  const all = [
    { id: 1, shortcode: "bomdia", message: "Bom dia!" },
    { id: 2, shortcode: "tchau", message: "Até logo" },
  ];
  assert.deepEqual(matchQuickAnswers(all, quickAnswerQuery("/bo")).map((q) => q.id), [1]);
  assert.deepEqual(matchQuickAnswers(all, quickAnswerQuery("/")).map((q) => q.id), [1, 2]);
  assert.deepEqual(matchQuickAnswers(all, quickAnswerQuery("hi")), []);
  // Every answer, however many (issue 50 item 10).
  const many = Array.from({ length: 80 }, (_, i) => ({ id: i, shortcode: `r${i}`, message: "" }));
  assert.equal(matchQuickAnswers(many, quickAnswerQuery("/")).length, 80);
});

Deno.test("tickets format - the other open ticket, locations and vcards as the server writes them", () => {
  const other = parseOtherTicket(
    JSON.stringify({
      id: 5,
      uuid: "abc",
      status: "open",
      userId: 3,
      user: { id: 3, name: "Bia" },
      queueId: 1,
      queue: { id: 1, name: "Vendas" },
    }),
  );
  assert.equal(other?.user?.name, "Bia");
  assert.equal(other?.queue?.name, "Vendas");
  assert.equal(other?.uuid, "abc");
  assert.equal(parseOtherTicket("not json"), null);
  assert.deepEqual(parseLocation(locationBody(-23.5, -46.6, "Av. Paulista")), {
    url: "https://maps.google.com/maps?q=-23.5%2C-46.6&z=17",
    description: "Av. Paulista",
  });
  assert.deepEqual(parseVcard(vcardBody("João, Silva", "+55 11 91234-5678")), {
    name: "João, Silva",
    number: "5511912345678",
  });
});

Deno.test("tickets forms - contact rules and the connection to prefill", () => {
  const contactErrors = (values: Record<string, string>) => check(values, CONTACT_RULES);
  assert.deepEqual(contactErrors({ name: "", number: "", email: "" }), {
    name: "people.validation.required",
    number: "people.validation.required",
  });
  assert.deepEqual(contactErrors({ name: "A", number: "1234567", email: "x@" }), {
    name: "people.validation.tooShort",
    number: "people.validation.tooShort",
    email: "people.validation.invalidEmail",
  });
  assert.deepEqual(contactErrors({ name: "Ana", number: "5511999990000", email: "" }), {});
  const connections = [{ id: 1, name: "A" }, { id: 2, name: "B", isDefault: true }];
  assert.equal(defaultConnection(connections, 1), 1);
  assert.equal(defaultConnection(connections, null), 2);
  assert.equal(defaultConnection(connections, 9), 2);
  assert.equal(defaultConnection([{ id: 4, name: "only" }], null), 4);
  assert.equal(defaultConnection([], null), null);
});

Deno.test("tickets notifications - only mine or unassigned, in my queues or none, never groups", () => {
  const user = {
    id: ME,
    profile: "user",
    super: false,
    allTicket: "disable",
    queues: [{ id: 1, name: "Sales", color: "#000" }],
  };
  const event = (ticketPatch: Record<string, unknown>, messagePatch = {}) => ({
    action: "create",
    message: { fromMe: false, read: false, body: "hi", ...messagePatch },
    ticket: { id: 5, uuid: "u", userId: null, queueId: 1, isGroup: false, ...ticketPatch },
  });
  assert.equal(shouldNotify(user, event({}), true), true);
  assert.equal(shouldNotify(user, event({ userId: ME }), true), true);
  assert.equal(shouldNotify(user, event({ queueId: null }), true), true);
  assert.equal(shouldNotify(user, event({ userId: 99 }), true), false);
  assert.equal(shouldNotify(user, event({ queueId: 2 }), true), false);
  assert.equal(shouldNotify(user, event({ isGroup: true }), true), false);
  assert.equal(shouldNotify(user, event({}, { fromMe: true }), true), false);
  assert.equal(shouldNotify(user, { ...event({}), action: "update" }, true), false);
  // The ticket on screen: not while the page is visible.
  viewingTicketId.value = 5;
  try {
    assert.equal(shouldNotify(user, event({}), true), false);
    assert.equal(shouldNotify(user, event({}), false), true);
  } finally {
    viewingTicketId.value = null;
  }
});

Deno.test("tickets bell - a colleague's chat of my queue does not make the bell read again", () => {
  const user = {
    id: ME,
    profile: "user",
    super: false,
    allTicket: "disable",
    queues: [{ id: 1, name: "Sales", color: "#000" }],
  };
  const colleagues = ticket(3, { status: "open", userId: 99 });
  const message = (t: Ticket) => ({ channel: "appMessage" as const, data: { ticket: t } });
  assert.equal(concernsBell(user, [], message(colleagues)), false);
  // Listed (it was mine a moment ago), or it may join the bell: read again.
  assert.equal(concernsBell(user, [3], message(colleagues)), true);
  assert.equal(concernsBell(user, [], message(ticket(4, { userId: null }))), true);
  assert.equal(concernsBell(user, [], message(ticket(5, { status: "open", userId: ME }))), true);
  assert.equal(
    concernsBell(user, [6], { channel: "ticket", data: { action: "delete", ticketId: 6 } }),
    true,
  );
  assert.equal(
    concernsBell(user, [], { channel: "ticket", data: { action: "delete", ticketId: 6 } }),
    false,
  );
});

Deno.test("tickets list - events that overtake a read are applied again on top of its page", () => {
  const s = scope();
  const reduce = listReducer(s);
  let state = loaded(s, [ticket(1), ticket(2)]);
  state = reduce(state, { type: "loading" });
  // While the read is on its way: ticket 3 arrives, ticket 1 is accepted by someone else.
  state = reduce(state, { type: "update", ticket: ticket(3) });
  state = reduce(state, { type: "update", ticket: ticket(1, { status: "open", userId: 99 }) });
  // The page was read before both changes.
  state = reduce(state, {
    type: "page",
    page: 1,
    tickets: [ticket(1), ticket(2)],
    count: 2,
    hasMore: false,
  });
  assert.deepEqual(state.tickets.map((t) => t.id), [3, 2]);
  assert.equal(state.count, 2);
  assert.equal(state.loading, false);
  // Once the page is in, events apply once and are not kept for a later page.
  state = reduce(state, { type: "delete", ticketId: 2 });
  state = reduce(state, { type: "page", page: 1, tickets: [ticket(2)], count: 1, hasMore: false });
  assert.deepEqual(state.tickets.map((t) => t.id), [2]);
});

Deno.test("tickets list - an overtaken read's page shows while the newer read runs, which still gets the events since", () => {
  const s = scope();
  const reduce = listReducer(s);
  let state = reduce(EMPTY_LIST, { type: "loading" });
  state = reduce(state, { type: "update", ticket: ticket(3) });
  state = reduce(state, {
    type: "page",
    page: 1,
    tickets: [ticket(1), ticket(2)],
    count: 2,
    hasMore: false,
    overtaken: true,
  });
  assert.deepEqual(state.tickets.map((t) => t.id), [3, 1, 2], "shown at once, events on top");
  assert.equal(state.loading, true, "the newer read is still coming");
  state = reduce(state, { type: "update", ticket: ticket(4) });
  state = reduce(state, { type: "page", page: 1, tickets: [ticket(1)], count: 1, hasMore: false });
  assert.deepEqual(state.tickets.map((t) => t.id), [4, 3, 1], "the newer page, events replayed");
  assert.equal(state.loading, false);
});

Deno.test("tickets list - pinned tickets stay first; live events keep the pin; a pin or unpin moves them", () => {
  const s = scope();
  const reduce = listReducer(s);
  let state = loaded(s, [ticket(1, { pinned: true }), ticket(2), ticket(3)]);
  // A new message (the socket's ticket has no `pinned`) moves 3 up, below the pinned one.
  state = reduce(state, { type: "message", ticket: ticket(3), fromMe: false });
  assert.deepEqual(state.tickets.map((t) => [t.id, t.pinned === true]), [[1, true], [3, false], [
    2,
    false,
  ]]);
  state = reduce(state, { type: "update", ticket: ticket(1, { lastMessage: "x" }) });
  assert.equal(state.tickets[0].pinned, true);
  state = reduce(state, { type: "pin", ticketId: 2, pinned: true });
  assert.deepEqual(state.tickets.map((t) => t.id), [1, 2, 3]);
  state = reduce(state, { type: "pin", ticketId: 1, pinned: false });
  assert.deepEqual(state.tickets.map((t) => t.id), [2, 1, 3]);
});

Deno.test("tickets messages - a jump replaces the view with the page around the message; newer pages come below", () => {
  let state = messagesReducer(emptyMessages(), {
    type: "page",
    page: 1,
    messages: [message(90), message(91)],
    hasMore: true,
  });
  state = messagesReducer(state, {
    type: "jump",
    page: 5,
    messages: [message(10), message(11)],
    hasMore: true,
    focus: 10,
  });
  assert.deepEqual(state.messages.map((m) => m.id), [10, 11]);
  assert.equal(state.focus, 10);
  assert.equal(state.newest, 5);
  state = messagesReducer(state, { type: "newer", page: 4, messages: [message(12)] });
  assert.deepEqual(state.messages.map((m) => m.id), [10, 11, 12]);
  assert.equal(state.newest, 4);
  state = messagesReducer(state, { type: "focus", focus: 12 });
  assert.equal(state.focus, 12);
});

function emptyMessages() {
  return messagesReducer(
    { messages: [], hasMore: false, page: 0, loading: true, newest: 1, focus: null },
    { type: "reset" },
  );
}
