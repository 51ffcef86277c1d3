import type { ChannelEvent } from "../socket.ts";
import type { ChatView } from "../../../contract/team_types.ts";
import { useLiveList } from "./live.ts";

/**
 * The internal chats the shell keeps (the chat bell's list and the menu's marker): apart from
 * Bells.tsx, whose bells load after the page (issue 33), because the menu needs them at once.
 */
export type Chat = Pick<ChatView, "id" | "uuid" | "title" | "lastMessage" | "users" | "updatedAt">;

export function unreadChats(chats: Chat[], userId: number): Chat[] {
  return chats.filter((chat) => chat.users.some((u) => u.userId === userId && u.unreads > 0));
}

/**
 * What a chat event does to the shell's list: new messages, reads and changes carry the whole
 * chat (replaced, latest activity first); a delete removes it (server/chats/service.ts).
 */
export function applyChatEvent(
  chats: Chat[],
  { data }: ChannelEvent<"chat" | "chat-user">,
): Chat[] | null {
  if (data.action === "reload") return null;
  if (data.action === "delete") return chats.filter((chat) => chat.id !== data.id);
  const chat = "chat" in data ? data.chat : data.record;
  return [chat, ...chats.filter((c) => c.id !== chat.id)]
    .sort((a, b) => b.updatedAt.localeCompare(a.updatedAt) || b.id - a.id);
}

/** The internal chats the user takes part in, kept fresh by the chat events (quiet on errors). */
export function useChats(enabled: boolean): Chat[] {
  return useLiveList<Chat, "chat" | "chat-user">({
    enabled,
    path: "/chats",
    query: { pageNumber: 1 },
    key: "records",
    // New messages and reads move the counters (chat); a chat made or changed: chat-user.
    channels: ["chat", "chat-user"],
    apply: applyChatEvent,
  }).items;
}
