import { useTranslation } from "react-i18next";
import { DeleteDialog } from "../lib/list/DeleteDialog.tsx";
import {
  type ResourceList,
  useRecordDialogs,
  useResourceList,
  useWindowEvent,
} from "../lib/list/hooks.ts";
import { AddButton, ListSearch, ResourceTable, RowActions } from "../lib/list/ResourceList.tsx";
import { useRealtime } from "../lib/socket.ts";
import type { SessionUser } from "../../contract/types.ts";
import type { ChatView } from "../../contract/team_types.ts";
import { whenOpen } from "../lib/ui/deferred.tsx";

const ChatDialog = whenOpen(() => import("./ChatDialog.tsx").then((m) => m.ChatDialog));

const OPEN_ADD = "chats:add";

/** Latest activity first (GET /api/chats order); live changes keep it. */
export function byActivity(a: ChatView, b: ChatView): number {
  return b.updatedAt.localeCompare(a.updatedAt) || b.id - a.id;
}

/**
 * The caller's chats: GET /api/chats pages, created and changed live on `chat-user`, moved by
 * new messages and reads on `chat`, gone on its delete (deleted, or the user was taken out).
 */
export function useChatList(
  current: ChatView | null,
  setCurrent: (chat: ChatView | null) => void,
): ResourceList<ChatView> {
  const list = useResourceList<ChatView>({
    path: "/chats",
    records: "records",
    channel: "chat-user",
    sort: byActivity,
  });
  useRealtime("chat", (d) => {
    if (d.action === "new-message" || d.action === "update") {
      list.upsert(d.chat);
      if (current?.id === d.chat.id) setCurrent(d.chat);
    }
    if (d.action === "delete") {
      list.remove(d.id);
      if (current?.id === d.id) {
        setCurrent(null);
        history.replaceState(null, "", "/chats");
      }
    }
  });
  useRealtime("chat-user", (d) => {
    if (d.action === "update" && current?.id === d.record.id) setCurrent(d.record);
  });
  return list;
}

const unreadsOf = (chat: ChatView, userId: number) =>
  chat.users.find((u) => u.userId === userId)?.unreads ?? 0;

export function ChatList(
  { list, me, current, onOpen }: {
    list: ResourceList<ChatView>;
    me: SessionUser;
    current: ChatView | null;
    onOpen: (chat: ChatView) => void;
  },
) {
  const { t } = useTranslation();
  const dialogs = useRecordDialogs<ChatView>();
  useWindowEvent(OPEN_ADD, dialogs.add);
  const chats = [...list.items].sort(byActivity);
  return (
    <div className="chat-list">
      <div className="chat-list-head">
        <ListSearch list={list} placeholder={t("chats.search")} testId="chats-search" />
        <AddButton event={OPEN_ADD} label={t("chats.add")} />
      </div>
      <ResourceTable
        list={list}
        testId="chats-list"
        empty={t("chats.empty")}
        head={
          <>
            <th>{t("chats.titleField")}</th>
            <th className="chat-unreads" />
            <th className="col-actions" />
          </>
        }
      >
        {chats.map((chat) => {
          const unreads = unreadsOf(chat, me.id);
          return (
            <tr
              key={chat.id}
              data-testid="chat-row"
              data-current={current?.id === chat.id}
              className="chat-row"
            >
              <td>
                <button type="button" className="chat-open" onClick={() => onOpen(chat)}>
                  <strong>{chat.title}</strong>
                  <span className="chat-last">{chat.lastMessage}</span>
                </button>
              </td>
              <td className="chat-unreads">
                {unreads > 0
                  ? (
                    <span className="pill" title={t("chats.unreads", { count: unreads })}>
                      {unreads}
                    </span>
                  )
                  : null}
              </td>
              {/* seeds/002 section 6: only the owner sees edit and delete. */}
              <RowActions
                onEdit={chat.ownerId === me.id ? () => dialogs.edit(chat.id) : undefined}
                onDelete={chat.ownerId === me.id ? () => dialogs.askDelete(chat) : undefined}
              />
            </tr>
          );
        })}
      </ResourceTable>
      <ChatDialog
        open={dialogs.editing !== null}
        onOpenChange={(open) => !open && dialogs.closeEdit()}
        id={dialogs.editing?.id ?? null}
        record={list.items.find((c) => c.id === dialogs.editing?.id) ?? null}
        me={me}
        onSaved={(chat) => {
          list.upsert(chat);
          onOpen(chat);
        }}
      />
      <DeleteDialog
        list={list}
        target={dialogs.deleting}
        onClose={dialogs.closeDelete}
        path="/chats"
        title={t("chats.deleteTitle", { title: dialogs.deleting?.title ?? "" })}
        successKey="chats.deleted"
      />
    </div>
  );
}
