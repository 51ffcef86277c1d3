import { useEffect } from "react";
import { useConnectionsAlert } from "./live.ts";
import { type Chat, unreadChats, useChats } from "./chats.ts";

/**
 * What the shell shows from live lists: the connections entry's alert, the internal chats (for
 * the chat bell) and whether one has unread messages for this user (the menu's marker).
 */
export type ShellLiveState = { connectionsAlert: boolean; chats: Chat[]; unreadChat: boolean };

/**
 * The shell's live lists (the connections alert, the internal chats of the menu's marker and the
 * chat bell), kept fresh from the realtime events. Rendered once the user is known, so their code
 * (the live-list hooks) loads then, beside the bells, not with the page (issue 33); it draws
 * nothing and hands the state to AppShell.
 */
export function ShellLive(
  { userId, connections, chats: chatsEnabled, onChange }: {
    userId: number;
    connections: boolean;
    chats: boolean;
    onChange: (state: ShellLiveState) => void;
  },
) {
  const connectionsAlert = useConnectionsAlert(connections);
  const chats = useChats(chatsEnabled);
  useEffect(
    () => onChange({ connectionsAlert, chats, unreadChat: unreadChats(chats, userId).length > 0 }),
    [connectionsAlert, chats, userId],
  );
  return null;
}
