import { sql } from "kysely";
import type { Database } from "../../db/client.ts";
import type { Chat, ChatMessage } from "../../db/schema.ts";
import type { ChatMessageView, ChatParticipant, ChatView } from "../../contract/team_types.ts";
import { likePattern, type PageAnswer, pageAnswer, pageWindow } from "../paging.ts";

export const CHATS_PAGE_SIZE = 20;
export const CHAT_MESSAGES_PAGE_SIZE = 20;

/** The participants of these chats with their names, by chat. */
async function participantsOf(
  db: Database,
  companyId: number,
  chatIds: readonly number[],
): Promise<Map<number, ChatParticipant[]>> {
  const byChat = new Map<number, ChatParticipant[]>();
  if (chatIds.length === 0) return byChat;
  const rows = await db.selectFrom("chat_users")
    .innerJoin("users", "users.id", "chat_users.userId")
    .select(["chat_users.chatId", "chat_users.userId", "chat_users.unreads", "users.name"])
    .where("chat_users.companyId", "=", companyId).where("chat_users.chatId", "in", chatIds)
    .orderBy("users.name").orderBy("users.id").execute();
  for (const row of rows) {
    let list = byChat.get(row.chatId);
    if (!list) byChat.set(row.chatId, list = []);
    list.push({
      userId: row.userId,
      unreads: Number(row.unreads),
      user: { id: row.userId, name: row.name },
    });
  }
  return byChat;
}

function chatView(chat: Chat, users: ChatParticipant[]): ChatView {
  return {
    id: chat.id,
    uuid: chat.uuid,
    title: chat.title,
    ownerId: chat.ownerId,
    lastMessage: chat.lastMessage,
    users,
    createdAt: chat.createdAt,
    updatedAt: chat.updatedAt,
  };
}

/** GET /api/chats: the chats `userId` takes part in, latest activity first. */
export async function pageChats(
  db: Database,
  companyId: number,
  userId: number,
  searchParam: string | undefined,
  pageNumber: number,
): Promise<PageAnswer<"records", ChatView>> {
  let q = db.selectFrom("chats")
    .innerJoin(
      "chat_users",
      (join) =>
        join.onRef("chat_users.chatId", "=", "chats.id").on("chat_users.userId", "=", userId),
    )
    .where("chats.companyId", "=", companyId);
  const text = searchParam?.trim();
  if (text) q = q.where(sql<boolean>`chats.title LIKE ${likePattern(text)} ESCAPE '\\'`);
  const window = pageWindow(pageNumber, CHATS_PAGE_SIZE);
  const rows = await q.selectAll("chats").orderBy("chats.updatedAt", "desc")
    .orderBy("chats.id", "desc").limit(window.limit).offset(window.offset).execute();
  const total = await q.select((eb) => eb.fn.countAll<number>().as("n"))
    .executeTakeFirstOrThrow();
  const users = await participantsOf(db, companyId, rows.map((r) => r.id));
  const records = rows.map((chat) => chatView(chat, users.get(chat.id) ?? []));
  return pageAnswer("records", records, Number(total.n), window);
}

/** A chat of the company by id or uuid. */
export async function findChat(
  db: Database,
  companyId: number,
  key: { id: number } | { uuid: string },
): Promise<Chat | undefined> {
  let q = db.selectFrom("chats").selectAll().where("companyId", "=", companyId);
  q = "id" in key ? q.where("id", "=", key.id) : q.where("uuid", "=", key.uuid);
  return await q.executeTakeFirst();
}

/** The chat as answered, with its participants. */
export async function loadChatView(
  db: Database,
  companyId: number,
  chatId: number,
): Promise<ChatView | undefined> {
  const chat = await findChat(db, companyId, { id: chatId });
  if (!chat) return undefined;
  return chatView(chat, (await participantsOf(db, companyId, [chat.id])).get(chat.id) ?? []);
}

export async function participantIds(
  db: Database,
  companyId: number,
  chatId: number,
): Promise<number[]> {
  const rows = await db.selectFrom("chat_users").select("userId")
    .where("companyId", "=", companyId).where("chatId", "=", chatId).execute();
  return rows.map((r) => r.userId);
}

export async function insertChat(
  db: Database,
  row: Omit<Chat, "id" | "lastMessage">,
): Promise<Chat> {
  return await db.insertInto("chats").values(row).returningAll().executeTakeFirstOrThrow();
}

export async function updateChatRow(
  db: Database,
  companyId: number,
  id: number,
  patch: Partial<Pick<Chat, "title" | "lastMessage" | "updatedAt">>,
) {
  await db.updateTable("chats").set(patch).where("id", "=", id)
    .where("companyId", "=", companyId).execute();
}

export async function deleteChatRow(db: Database, companyId: number, id: number) {
  await db.deleteFrom("chats").where("id", "=", id).where("companyId", "=", companyId).execute();
}

/**
 * The chat's participants become exactly `userIds`: those who stay keep their unread counter,
 * new ones start at 0. Returns who was removed.
 */
export async function replaceParticipants(
  db: Database,
  companyId: number,
  chatId: number,
  userIds: readonly number[],
  now: string,
): Promise<number[]> {
  const current = await participantIds(db, companyId, chatId);
  const removed = current.filter((id) => !userIds.includes(id));
  if (removed.length > 0) {
    await db.deleteFrom("chat_users").where("companyId", "=", companyId)
      .where("chatId", "=", chatId).where("userId", "in", removed).execute();
  }
  const added = userIds.filter((id) => !current.includes(id));
  if (added.length > 0) {
    await db.insertInto("chat_users").values(
      added.map((userId) => ({ companyId, chatId, userId, createdAt: now, updatedAt: now })),
    ).execute();
  }
  return removed;
}

/** How many of `ids` are users of the company. */
export async function countCompanyUsers(
  db: Database,
  companyId: number,
  ids: readonly number[],
): Promise<number> {
  if (ids.length === 0) return 0;
  const row = await db.selectFrom("users").select((eb) => eb.fn.countAll<number>().as("n"))
    .where("companyId", "=", companyId).where("id", "in", ids).executeTakeFirstOrThrow();
  return Number(row.n);
}

function messageView(row: ChatMessage & { senderName: string | null }): ChatMessageView {
  return {
    id: row.id,
    chatId: row.chatId,
    message: row.message,
    senderId: row.senderId,
    sender: row.senderId !== null && row.senderName !== null
      ? { id: row.senderId, name: row.senderName }
      : null,
    createdAt: row.createdAt,
  };
}

function messagesQuery(db: Database, companyId: number, chatId: number) {
  return db.selectFrom("chat_messages")
    .leftJoin("users", "users.id", "chat_messages.senderId")
    .where("chat_messages.companyId", "=", companyId).where("chat_messages.chatId", "=", chatId);
}

/** One message as its event tells it (server/events/outgoing.ts rebuilds a noted chat.message). */
export async function findMessageView(
  db: Database,
  companyId: number,
  chatId: number,
  id: number,
): Promise<ChatMessageView | undefined> {
  const row = await messagesQuery(db, companyId, chatId).where("chat_messages.id", "=", id)
    .selectAll("chat_messages").select("users.name as senderName").executeTakeFirst();
  return row && messageView(row);
}

/** GET /api/chats/:id/messages: newest page first, oldest first inside a page. */
export async function pageMessages(
  db: Database,
  companyId: number,
  chatId: number,
  pageNumber: number,
): Promise<PageAnswer<"records", ChatMessageView>> {
  const window = pageWindow(pageNumber, CHAT_MESSAGES_PAGE_SIZE);
  const rows = await messagesQuery(db, companyId, chatId)
    .selectAll("chat_messages").select("users.name as senderName")
    .orderBy("chat_messages.id", "desc").limit(window.limit).offset(window.offset).execute();
  const total = await db.selectFrom("chat_messages")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("companyId", "=", companyId).where("chatId", "=", chatId).executeTakeFirstOrThrow();
  return pageAnswer("records", rows.reverse().map(messageView), Number(total.n), window);
}

/**
 * Stores a message: the chat's last message and activity move, and every other participant's
 * unread counter grows by one, in the caller's transaction.
 */
export async function insertMessage(
  db: Database,
  companyId: number,
  chatId: number,
  sender: { id: number; name: string },
  message: string,
  now: string,
): Promise<ChatMessageView> {
  const row = await db.insertInto("chat_messages").values({
    companyId,
    chatId,
    senderId: sender.id,
    message,
    createdAt: now,
    updatedAt: now,
  }).returningAll().executeTakeFirstOrThrow();
  await db.updateTable("chat_users").set((eb) => ({ unreads: eb("unreads", "+", 1) }))
    .where("companyId", "=", companyId).where("chatId", "=", chatId)
    .where("userId", "<>", sender.id).execute();
  await updateChatRow(db, companyId, chatId, { lastMessage: message, updatedAt: now });
  return messageView({ ...row, senderName: sender.name });
}

/** The read call: the participant's unread counter goes back to 0. */
export async function resetUnreads(
  db: Database,
  companyId: number,
  chatId: number,
  userId: number,
  now: string,
) {
  await db.updateTable("chat_users").set({ unreads: 0, updatedAt: now })
    .where("companyId", "=", companyId).where("chatId", "=", chatId)
    .where("userId", "=", userId).execute();
}
