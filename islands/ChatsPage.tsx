import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { AppShell, type PageGuard } from "./lib/shell/AppShell.tsx";
import { api } from "./lib/api.ts";
import { ApiError } from "./lib/errors.ts";
import { RecordMissing } from "./lib/ui/RecordMissing.tsx";
import { useUser } from "./lib/session.ts";
import { useMediaQuery } from "./lib/media_query.ts";
import type { ChatView } from "../contract/team_types.ts";
import { Tabs } from "./lib/ui/Tabs.tsx";
import { ChatList, useChatList } from "./chats/ChatList.tsx";
import { lazyPart } from "./lib/ui/deferred.tsx";

export type ChatsPageProps = { chatUuid: string | null };

/** The open chat's messages: loaded with the first chat opened (as /tickets' ticket view), not with the page. */
const ChatPane = lazyPart(() => import("./chats/ChatPane.tsx").then((m) => m.ChatPane));

/**
 * /chats and /chats/:uuid (seeds/002 section 2.7): the conversations left and the open one's
 * messages right; under 600 px, tabs 'Chats' and 'Mensagens'.
 */
/** The plan flag useInternalChat (the API refuses without it too). */
const PLAN_CHAT: PageGuard = {
  allow: (user) => user.company.plan?.useInternalChat === true,
  message: "errors.noPermissionPage",
  redirectTo: "/",
};

export default function ChatsPage({ chatUuid }: ChatsPageProps) {
  const { t } = useTranslation();
  return (
    <AppShell title={t("chats.title")} layout="full" guard={PLAN_CHAT}>
      <Chats chatUuid={chatUuid} />
    </AppShell>
  );
}

function Chats({ chatUuid }: ChatsPageProps) {
  const { t } = useTranslation();
  const me = useUser();
  const narrow = useMediaQuery("(max-width: 599.98px)");
  const [current, setCurrent] = useState<ChatView | null>(null);
  const [tab, setTab] = useState(chatUuid ? "messages" : "chats");
  const [missing, setMissing] = useState(false);
  const list = useChatList(current, setCurrent);

  useEffect(() => {
    if (!chatUuid) return;
    // Failures of chat calls are silent (seeds/002 section 7): no toast. A chat that does not
    // exist (or is not the user's) is said where it would show, with the way back (issue 24).
    api.get<ChatView>(`/chats/${encodeURIComponent(chatUuid)}`, { quiet: true })
      .then(setCurrent).catch((error) => {
        if (error instanceof ApiError && error.status === 404) setMissing(true);
        else setTab("chats");
      });
  }, [chatUuid]);

  const open = (chat: ChatView) => {
    setMissing(false);
    setCurrent(chat);
    setTab("messages");
    history.replaceState(null, "", `/chats/${chat.uuid}`);
  };

  const left = <ChatList list={list} me={me} current={current} onOpen={open} />;
  const right = current
    ? <ChatPane key={current.id} chat={current} me={me} />
    : missing
    ? <RecordMissing back="/chats" backLabel="chats.back" />
    : <div className="chat-empty empty-state">{t("chats.pick")}</div>;

  if (narrow) {
    return (
      <div className="chats-page chats-narrow">
        <Tabs
          value={tab}
          onValueChange={setTab}
          label={t("chats.title")}
          tabs={[
            { value: "chats", label: t("chats.tabChats"), content: left },
            { value: "messages", label: t("chats.tabMessages"), content: right },
          ]}
        />
      </div>
    );
  }
  return (
    <div className="chats-page">
      <section className="chats-left" aria-label={t("chats.tabChats")}>{left}</section>
      <section className="chats-right" aria-label={t("chats.tabMessages")}>{right}</section>
    </div>
  );
}
