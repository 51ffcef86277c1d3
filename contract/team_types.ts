/**
 * API shapes of the internal chat and the announcements (seeds/002 section 3). Declared here
 * because the shell's bells and menu dot read them as well as their pages; the server's views
 * import them (server/chats/view.ts, server/announcements/repository.ts).
 */

export type ChatParticipant = {
  userId: number;
  /** Messages this participant has not read yet; reset by POST /api/chats/:id/read. */
  unreads: number;
  user: { id: number; name: string };
};

/** GET /api/chats records; the `record` of chat-user events and the `chat` of chat events. */
export type ChatView = {
  id: number;
  uuid: string;
  title: string;
  ownerId: number | null;
  lastMessage: string;
  users: ChatParticipant[];
  createdAt: string;
  updatedAt: string;
};

/** GET /api/chats/:id/messages records; `newMessage` of the chat-<id> new-message event. */
export type ChatMessageView = {
  id: number;
  chatId: number;
  message: string;
  senderId: number | null;
  sender: { id: number; name: string } | null;
  createdAt: string;
};

/** Announcement priorities (seeds/002 section 9): 1 high (red), 2 medium (orange), 3 low (grey). */
export const ANNOUNCEMENT_PRIORITIES = [1, 2, 3] as const;
export const DEFAULT_ANNOUNCEMENT_PRIORITY = 3;

/** GET /api/announcements records; `record` of the announcement event. */
export type AnnouncementView = {
  id: number;
  title: string;
  text: string;
  priority: number;
  status: boolean;
  mediaPath: string | null;
  mediaName: string | null;
  /** Whether the caller has seen it in the bell (POST /api/announcements/read). */
  read: boolean;
  createdAt: string;
  updatedAt: string;
};

/** Image types an announcement may carry (seeds/002 section 5: .png, .jpg, .jpeg). */
export const ANNOUNCEMENT_IMAGE_EXTENSIONS = [".png", ".jpg", ".jpeg"] as const;
