import { assertRecord } from "../auth/policy.ts";
import { chatChangeNeeds } from "../../contract/record_policy.ts";
import { noteOutgoing } from "../events/outgoing_repository.ts";
import type { AppDeps, AuthInfo } from "../context.ts";
import { AppError, badRequest, notFound } from "../errors.ts";
import type { Chat } from "../../db/schema.ts";
import type { Database } from "../../db/client.ts";
import type { ChatMessageView, ChatView } from "../../contract/team_types.ts";
import { LIMITS } from "../../contract/validation.ts";
import type { PageAnswer } from "../paging.ts";
import {
  countCompanyUsers,
  deleteChatRow,
  findChat,
  insertChat,
  insertMessage,
  loadChatView,
  pageChats,
  pageMessages,
  participantIds,
  replaceParticipants,
  resetUnreads,
  updateChatRow,
} from "./repository.ts";

/**
 * Internal chat (seeds/002 sections 2.7, 4, 5, 7): conversations between users of one company.
 * Participants are users of the caller's company only; only participants read, post or hear a
 * chat (anyone else gets 404 ERR_NO_CHAT_FOUND, exactly like a chat that does not exist); only
 * the owner edits or deletes it. Every event goes to the participants' own sockets (their user
 * rooms), never to the whole company.
 */

export type ChatInput = { title: string; users: number[] };

function chatNotFound(): AppError {
  return notFound("ERR_NO_CHAT_FOUND", "Conversa não encontrada");
}

/** The chat, if the caller takes part in it; otherwise 404 as if it did not exist. */
async function participatedChat(
  db: Database,
  auth: AuthInfo,
  key: { id: number } | { uuid: string },
): Promise<Chat> {
  const chat = await findChat(db, auth.companyId, key);
  if (!chat) throw chatNotFound();
  const ids = await participantIds(db, auth.companyId, chat.id);
  if (!ids.includes(auth.userId)) throw chatNotFound();
  return chat;
}

/** Every id must be a user of the caller's company (404 ERR_NO_USER_FOUND otherwise). */
async function assertCompanyUsers(db: Database, companyId: number, ids: number[]) {
  if (await countCompanyUsers(db, companyId, ids) !== ids.length) {
    throw notFound("ERR_NO_USER_FOUND", "Usuário não encontrado");
  }
}

/** The participants: the chosen users and always the owner. */
function participantsOf(ownerId: number | null, users: number[]): number[] {
  return [...new Set(ownerId === null ? users : [ownerId, ...users])];
}

/** GET /api/chats/:id (id or uuid): a chat the caller takes part in. */
export async function readChat(
  deps: AppDeps,
  auth: AuthInfo,
  key: { id: number } | { uuid: string },
): Promise<ChatView> {
  const chat = await participatedChat(deps.db, auth, key);
  return (await loadChatView(deps.db, auth.companyId, chat.id))!;
}

/** POST /api/chats: the caller owns the new chat and takes part in it. */
export async function createChat(
  deps: AppDeps,
  auth: AuthInfo,
  input: ChatInput,
): Promise<ChatView> {
  const now = deps.clock.now().toISOString();
  const users = participantsOf(auth.userId, input.users);
  const view = await deps.db.transaction().execute(async (trx) => {
    await assertCompanyUsers(trx, auth.companyId, users);
    const chat = await insertChat(trx, {
      uuid: crypto.randomUUID(),
      companyId: auth.companyId,
      ownerId: auth.userId,
      title: input.title,
      createdAt: now,
      updatedAt: now,
    });
    await replaceParticipants(trx, auth.companyId, chat.id, users, now);
    return (await loadChatView(trx, auth.companyId, chat.id))!;
  });
  deps.events.emit("chat.created", { companyId: auth.companyId, chat: view });
  return view;
}

/** PUT /api/chats/:id: the owner renames it and chooses its participants. */
export async function changeChat(
  deps: AppDeps,
  auth: AuthInfo,
  id: number,
  input: ChatInput,
): Promise<ChatView> {
  const now = deps.clock.now().toISOString();
  const { view, removed } = await deps.db.transaction().execute(async (trx) => {
    const chat = await participatedChat(trx, auth, { id });
    assertRecord(auth, chatChangeNeeds(auth, chat), "Somente o dono da conversa a altera");
    const users = participantsOf(chat.ownerId, input.users);
    await assertCompanyUsers(trx, auth.companyId, users);
    await updateChatRow(trx, auth.companyId, id, { title: input.title, updatedAt: now });
    const removed = await replaceParticipants(trx, auth.companyId, id, users, now);
    return { view: (await loadChatView(trx, auth.companyId, id))!, removed };
  });
  deps.events.emit("chat.updated", { companyId: auth.companyId, chat: view, removed });
  return view;
}

/** DELETE /api/chats/:id: the owner only; every participant hears `chat` delete. */
export async function removeChat(deps: AppDeps, auth: AuthInfo, id: number): Promise<void> {
  const users = await deps.db.transaction().execute(async (trx) => {
    const chat = await participatedChat(trx, auth, { id });
    assertRecord(auth, chatChangeNeeds(auth, chat), "Somente o dono da conversa a exclui");
    const users = await participantIds(trx, auth.companyId, id);
    await deleteChatRow(trx, auth.companyId, id);
    return users;
  });
  deps.events.emit("chat.deleted", { companyId: auth.companyId, id, users });
}

/** GET /api/chats: the caller's chats, a page, `searchParam` on the title. */
export async function listChats(
  deps: AppDeps,
  auth: AuthInfo,
  searchParam: string | undefined,
  pageNumber: number,
): Promise<PageAnswer<"records", ChatView>> {
  return await pageChats(deps.db, auth.companyId, auth.userId, searchParam, pageNumber);
}

/** GET /api/chats/:id/messages: a page of the messages of a chat the caller takes part in. */
export async function listChatMessages(
  deps: AppDeps,
  auth: AuthInfo,
  id: number,
  pageNumber: number,
): Promise<PageAnswer<"records", ChatMessageView>> {
  await participatedChat(deps.db, auth, { id });
  return await pageMessages(deps.db, auth.companyId, id, pageNumber);
}

/**
 * The message text: not blank (seeds/002 section 5: empty or whitespace messages are not sent)
 * and at most LIMITS.chatMessage.max characters, each with its own code.
 */
export function checkMessage(text: string): string {
  const message = text.trim();
  if (message.length === 0) {
    throw badRequest("ERR_EMPTY_MESSAGE", "A mensagem está vazia", { message: ["Obrigatório"] });
  }
  if (message.length > LIMITS.chatMessage.max) {
    throw badRequest(
      "ERR_MESSAGE_TOO_LONG",
      `A mensagem passa de ${LIMITS.chatMessage.max} caracteres`,
      { message: ["Too Long!"] },
    );
  }
  return message;
}

/**
 * POST /api/chats/:id/messages: the others' unread counters grow; `chat-<id>` new-message
 * `{newMessage, chat}` and `chat` new-message reach the participants only.
 */
export async function postMessage(
  deps: AppDeps,
  auth: AuthInfo,
  id: number,
  text: string,
): Promise<ChatMessageView> {
  const message = checkMessage(text);
  const now = deps.clock.now().toISOString();
  const { newMessage, chat, outgoing } = await deps.db.transaction().execute(async (trx) => {
    await participatedChat(trx, auth, { id });
    const sender = { id: auth.userId, name: auth.user.name };
    const newMessage = await insertMessage(trx, auth.companyId, id, sender, message, now);
    // Noted with the message (server/events/outgoing.ts): its pushes survive a crash.
    const outgoing = await noteOutgoing(trx, auth.companyId, "chat.message", {
      chatId: id,
      chatMessageId: newMessage.id,
    }, now);
    return { newMessage, chat: (await loadChatView(trx, auth.companyId, id))!, outgoing };
  });
  deps.events.emit("chat.message", {
    companyId: auth.companyId,
    chat,
    message: newMessage,
    outgoing,
  });
  return newMessage;
}

/**
 * POST /api/chats/:id/read: the caller's unread counter goes back to 0 (seeds/002 section 4); the
 * `update` reaches the caller's own sockets (their other tabs clear their dot and bell too).
 */
export async function markChatRead(deps: AppDeps, auth: AuthInfo, id: number): Promise<ChatView> {
  const now = deps.clock.now().toISOString();
  const chat = await deps.db.transaction().execute(async (trx) => {
    await participatedChat(trx, auth, { id });
    await resetUnreads(trx, auth.companyId, id, auth.userId, now);
    return (await loadChatView(trx, auth.companyId, id))!;
  });
  // Only the reader's own counter changed, and only their screens show it: telling every
  // participant would cost a big chat one event per reader per participant for each message.
  deps.events.emit("chat.read", { companyId: auth.companyId, chat, userId: auth.userId });
  return chat;
}
