import { useCallback, useEffect, useRef, useState } from "react";
import { api } from "../lib/api.ts";
import { useRealtime, useRoomSync } from "../lib/socket.ts";
import type { ChatMessageView, ChatView } from "../../contract/team_types.ts";

export type ChatMessages = {
  messages: ChatMessageView[];
  hasMore: boolean;
  loading: boolean;
  loadOlder: () => void;
  /** Adds a message sent here (the live event may come first or after: one copy either way). */
  add: (message: ChatMessageView) => void;
};

/** Messages by id, oldest first, one copy each. */
function merge(a: ChatMessageView[], b: ChatMessageView[]): ChatMessageView[] {
  const byId = new Map<number, ChatMessageView>();
  for (const m of [...a, ...b]) byId.set(m.id, m);
  return [...byId.values()].sort((x, y) => x.id - y.id);
}

/** Marks the chat read for the caller (seeds/002 section 4); failures are silent (section 7). */
export function markRead(chatId: number) {
  api.post(`/chats/${chatId}/read`, {}, { quiet: true }).catch(() => {});
}

/**
 * One chat's messages: GET /api/chats/:id/messages (newest page first), older pages on demand,
 * new ones live from `chat-<id>`; a message from someone else while the page is visible is read
 * at once, so the menu dot and the bell stay clear for the chat on screen.
 */
export function useChatMessages(chat: ChatView, myId: number): ChatMessages {
  const [messages, setMessages] = useState<ChatMessageView[]>([]);
  const [hasMore, setHasMore] = useState(false);
  const [loading, setLoading] = useState(true);
  const page = useRef(1);
  const busy = useRef(false);

  const load = useCallback(async (pageNumber: number) => {
    if (busy.current) return;
    busy.current = true;
    setLoading(true);
    try {
      markSync();
      const answer = await api.get<{ records: ChatMessageView[]; hasMore: boolean }>(
        `/chats/${chat.id}/messages`,
        { query: { pageNumber }, quiet: true },
      );
      setMessages((old) => merge(old, answer.records));
      // Page 1 again (a reconnect) says nothing about the older pages already shown.
      if (pageNumber >= page.current) {
        page.current = pageNumber;
        setHasMore(answer.hasMore);
      }
    } catch {
      // silent (seeds/002 section 7)
    } finally {
      busy.current = false;
      setLoading(false);
    }
  }, [chat.id]);

  // Events sent while the socket was down never arrive: after a reconnect, read page 1 again.
  const markSync = useRoomSync([], () => void load(1));

  useEffect(() => {
    void load(1);
    markRead(chat.id);
  }, [chat.id]);

  useRealtime(`chat-${chat.id}`, (d) => {
    if (d.action !== "new-message") return;
    const message = d.newMessage;
    setMessages((old) => merge(old, [message]));
    if (message.senderId !== myId && document.visibilityState === "visible") {
      markRead(chat.id);
    }
  });

  return {
    messages,
    hasMore,
    loading,
    loadOlder: () => {
      if (hasMore && !busy.current) void load(page.current + 1);
    },
    add: (message) => setMessages((old) => merge(old, [message])),
  };
}
