import assert from "node:assert/strict";
import {
  byActivity,
  cardOf,
  laneOfCard,
  onBoard,
  type TicketEvent,
} from "../../islands/kanban/board_state.ts";
import { laneJump } from "../../islands/kanban/keyboard.ts";
import { formatScheduleDate, shortBody } from "../../contract/schedule_types.ts";
import { textOn } from "../../contract/tag_types.ts";

const ticket: TicketEvent = {
  id: 7,
  uuid: "u-7",
  status: "open",
  lastMessage: "oi",
  updatedAt: "2026-11-22T12:00:00.000Z",
  queueId: 1,
  userId: null,
  isGroup: false,
  contact: { id: 3, name: "Maria", number: "5511999990001" },
  tags: [{ id: 10, name: "VIP", color: "#000" }, { id: 20, name: "Proposta", color: "#fff" }],
};

Deno.test("kanban board - a ticket update becomes a card in the lane of its first kanban tag", () => {
  const lanes = new Set([20, 30]);
  const card = cardOf(ticket, lanes);
  assert.deepEqual(card.tags.map((g) => [g.id, g.kanban]), [[10, false], [20, true]]);
  assert.equal(laneOfCard(card, lanes), 20);
  assert.equal(laneOfCard(cardOf({ ...ticket, tags: [] }, lanes), lanes), "open");
  // A tag that is no longer a lane puts the card back in 'Em aberto'.
  assert.equal(laneOfCard(card, new Set([30])), "open");
});

Deno.test("kanban board - who keeps a card: admins all open ones; a user their queues' own or unassigned", () => {
  const card = cardOf(ticket, new Set());
  const user = { userId: 5, isAdmin: false, queueIds: [1], allTicket: false };
  assert.equal(onBoard(card, user), true);
  assert.equal(onBoard({ ...card, userId: 5 }, user), true);
  assert.equal(onBoard({ ...card, userId: 6 }, user), false);
  assert.equal(onBoard({ ...card, queueId: 2 }, user), false);
  // Without a queue: on every board, as the server's board answers it (issue 25 item 4).
  assert.equal(onBoard({ ...card, queueId: null }, user), true);
  assert.equal(onBoard({ ...card, status: "closed" }, user), false);
  assert.equal(onBoard({ ...card, userId: 6, queueId: null }, { ...user, isAdmin: true }), true);
  assert.equal(onBoard({ ...card, status: "closed" }, { ...user, isAdmin: true }), false);
  const older = { ...card, id: 8, updatedAt: "2026-11-21T12:00:00.000Z" };
  assert.deepEqual([older, card].sort(byActivity).map((c) => c.id), [7, 8]);
});

Deno.test("kanban keyboard - Right and Left jump to the next lane's centre; Up and Down step a card", () => {
  const rect = (left: number, width = 280) => ({
    left,
    width,
    top: 0,
    height: 600,
    right: left + width,
    bottom: 600,
  });
  const lanes = new Map([["a", rect(0)], ["b", rect(300)], ["c", rect(600)]]);
  const card = { ...rect(10, 260), top: 100, height: 90, bottom: 190 };
  const context = { collisionRect: card, droppableRects: lanes } as unknown as Parameters<
    typeof laneJump
  >[1]["context"];
  const press = (code: string) =>
    // Deno has no KeyboardEvent: the getter reads `code` and calls preventDefault.
    laneJump({ code, preventDefault() {} } as KeyboardEvent, {
      active: 1,
      currentCoordinates: { x: 10, y: 100 },
      context,
    });
  assert.deepEqual(press("ArrowRight"), { x: 310, y: 100 });
  assert.equal(press("ArrowLeft"), undefined);
  assert.deepEqual(press("ArrowDown"), { x: 10, y: 190 });
  assert.deepEqual(press("ArrowUp"), { x: 10, y: 10 });
  assert.equal(press("KeyA"), undefined);
});

Deno.test("schedules list - body cut at 25 characters; dates as DD/MM/YYYY HH:mm:ss", () => {
  assert.equal(shortBody("Lembrete: sua proposta vence amanhã"), "Lembrete: sua proposta ve…");
  assert.equal(shortBody("curta"), "curta");
  // The company's clock, whatever this machine's zone: 12:05:07 UTC is 09:05:07 in São Paulo.
  assert.equal(
    formatScheduleDate("2026-11-02T12:05:07.000Z", "America/Sao_Paulo"),
    "02/11/2026 09:05:07",
  );
  assert.equal(formatScheduleDate("2026-11-02T12:05:07.000Z", "Asia/Tokyo"), "02/11/2026 21:05:07");
  assert.equal(formatScheduleDate("not a date", "America/Sao_Paulo"), "");
});

Deno.test("tag chips - dark text on light colours, white on dark ones", () => {
  assert.equal(textOn("#ffffff"), "#1a1a1a");
  assert.equal(textOn("#FFEB3B"), "#1a1a1a");
  assert.equal(textOn("#000"), "#ffffff");
  assert.equal(textOn("#3F51B5"), "#ffffff");
});
