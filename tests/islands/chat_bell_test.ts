import assert from "node:assert/strict";
import { applyChatEvent, unreadChats } from "../../islands/lib/shell/chats.ts";
import type { ChatView } from "../../contract/team_types.ts";

function chat(id: number, updatedAt: string, unreads: Record<number, number>): ChatView {
  return {
    id,
    uuid: `uuid-${id}`,
    title: `Chat ${id}`,
    ownerId: 1,
    lastMessage: "",
    users: Object.entries(unreads).map(([userId, n]) => ({
      userId: Number(userId),
      unreads: n,
      user: { id: Number(userId), name: `U${userId}` },
    })),
    createdAt: updatedAt,
    updatedAt,
  };
}

Deno.test("chat bell - events carry the whole chat: replaced, latest first; delete removes; the rest reads again", () => {
  const a = chat(1, "2026-11-22T10:00:00.000Z", { 1: 0, 2: 0 });
  const b = chat(2, "2026-11-22T11:00:00.000Z", { 1: 0, 2: 0 });
  const list = [b, a];
  assert.deepEqual(unreadChats(list, 2), []);

  const message = chat(1, "2026-11-22T12:00:00.000Z", { 1: 0, 2: 1 });
  const newMessage = {
    id: 5,
    chatId: 1,
    message: "oi",
    senderId: 1,
    sender: { id: 1, name: "U1" },
    createdAt: message.updatedAt,
  };
  const after = applyChatEvent(list, {
    channel: "chat",
    data: { action: "new-message", newMessage, chat: message },
  })!;
  assert.deepEqual(after.map((c) => c.id), [1, 2]);
  assert.deepEqual(unreadChats(after, 2).map((c) => c.id), [1]);
  assert.deepEqual(unreadChats(after, 1), []);

  const read = chat(1, "2026-11-22T12:00:00.000Z", { 1: 0, 2: 0 });
  assert.deepEqual(
    unreadChats(
      applyChatEvent(after, { channel: "chat", data: { action: "update", chat: read } })!,
      2,
    ),
    [],
  );

  const created = chat(3, "2026-11-22T13:00:00.000Z", { 1: 0, 2: 0 });
  const withNew = applyChatEvent(after, {
    channel: "chat-user",
    data: { action: "create", record: created },
  })!;
  assert.deepEqual(withNew.map((c) => c.id), [3, 1, 2]);
  assert.deepEqual(
    applyChatEvent(withNew, { channel: "chat", data: { action: "delete", id: 1 } })!
      .map((c) => c.id),
    [3, 2],
  );
  assert.equal(applyChatEvent(withNew, { channel: "chat-user", data: { action: "reload" } }), null);
});
