import { type ReactNode, useEffect, useState } from "react";
import { Popover } from "../ui/Popover.tsx";
import { useTranslation } from "react-i18next";
import { IconButton } from "../ui/Button.tsx";
import { realtime, useRealtime } from "../socket.ts";
import type { SessionUser } from "../../../contract/types.ts";
import { useLiveList } from "./live.ts";
import { concernsBell, notifyNewMessage } from "../ticket_notify.ts";
import { api } from "../api.ts";
import type { AnnouncementView } from "../../../contract/team_types.ts";
import { type Chat, unreadChats } from "./chats.ts";
import { PRIORITY_CLASS } from "./priority.ts";
import { playNotificationSound } from "./sound.ts";
import type { SlaKind, TicketView } from "../../../contract/ticket_types.ts";
import { icon } from "../ui/icon.tsx";
import { can } from "../permissions.ts";

const Bell = icon("bell");
const Megaphone = icon("megaphone");
const MessagesSquare = icon("messages-square");
const Timer = icon("timer");

/** The breaches the SLA bell keeps (this session's, newest first). */
const SLA_KEPT = 30;

/** What the bells read of the tickets, announcements and chats APIs (their areas own them). */
type TicketNote = {
  id: number;
  uuid: string;
  unreadMessages?: number;
  lastMessage?: string | null;
  /** The newest message was deleted for everyone (contract/ticket_types.ts TicketView). */
  lastMessageDeleted?: boolean;
  contact?: { name?: string } | null;
};

const badge = (count: number) => count > 99 ? "99+" : String(count);

function BellPopover(
  { label, icon, count, children, onOpen, testId }: {
    label: string;
    icon: ReactNode;
    count: number;
    children: ReactNode;
    onOpen?: () => void;
    testId: string;
  },
) {
  return (
    <Popover
      onOpen={onOpen}
      trigger={
        <IconButton
          label={label}
          // The name holds the count the badge shows: what is read is what is seen.
          aria-label={count > 0 ? `${label}: ${badge(count)}` : label}
          data-testid={testId}
        >
          {icon}
          {count > 0 ? <span className="badge">{badge(count)}</span> : null}
        </IconButton>
      }
    >
      <div className="popover-title">{label}</div>
      <div className="popover-list">{children}</div>
    </Popover>
  );
}

function Empty({ children }: { children: ReactNode }) {
  return <div className="popover-empty">{children}</div>;
}

/**
 * Tickets with unread messages (seeds/000 section 2 'Top bar'); a new inbound message rings at
 * the stored volume and raises a desktop notification under the rules of
 * islands/lib/ticket_notify.ts (not for the ticket on screen while the page is visible).
 */
export function TicketsBell({ user }: { user: SessionUser }) {
  const { t } = useTranslation();
  useEffect(() => realtime.join("joinNotification"), []);
  const { items } = useLiveList<TicketNote, "ticket" | "appMessage">({
    enabled: true,
    path: "/tickets",
    query: { withUnreadMessages: "true" },
    key: "tickets",
    channels: ["ticket", "appMessage"],
    onEvent: (event) => {
      // seeds/000 section 6: who is notified, how (sound and browser notification).
      if (event.channel === "appMessage") {
        notifyNewMessage(user, event.data, t("shell.bells.newMessage"));
      }
    },
    // Events of tickets the bell neither lists nor may list leave it as it is (no read).
    apply: (items, event) => concernsBell(user, items.map((i) => i.id), event) ? null : items,
  });
  // seeds/000 section 6: with allTicket enabled the list also holds the pending tickets.
  const pending = useLiveList<TicketNote, "ticket">({
    enabled: user.allTicket === "enable",
    path: "/tickets",
    query: { status: "pending" },
    key: "tickets",
    channels: ["ticket"],
  }).items;
  const unread = mergeById(items.filter((ticket) => (ticket.unreadMessages ?? 0) > 0), pending);
  // Issue 50 item 17: tickets passed to the user from a colleague who went offline (this
  // session's); each rings once, opening the bell marks them seen.
  const [handed, setHanded] = useState<Handed[]>([]);
  useRealtime("ticketTakenBack", (event) => {
    if (event.action !== "given") return;
    playNotificationSound();
    const { ticket, fromName } = event;
    setHanded((old) =>
      [{ ticket, fromName, seen: false }, ...old.filter((h) => h.ticket.id !== ticket.id)]
        .slice(0, SLA_KEPT)
    );
  });
  const unseenHanded = handed.filter((h) => !h.seen).length;
  const open = () => {
    setHanded((old) => old.map((h) => ({ ...h, seen: true })));
    // Asked on a click (browsers refuse prompts without a gesture); without support: logged only.
    if (!("Notification" in globalThis)) return;
    if (Notification.permission === "default") void Notification.requestPermission();
  };
  return (
    <BellPopover
      label={t("shell.bells.tickets")}
      icon={<Bell size={20} aria-hidden="true" />}
      count={unread.length + unseenHanded}
      onOpen={open}
      testId="bell-tickets"
    >
      {handed.map(({ ticket, fromName }) => (
        <a
          key={`handed-${ticket.id}`}
          className="popover-item"
          href={`/tickets/${ticket.uuid}`}
          data-testid="taken-back-item"
        >
          <strong>{ticket.contact?.name ?? `#${ticket.id}`}</strong>
          <span className="popover-sub">{t("shell.bells.takenBack", { name: fromName })}</span>
        </a>
      ))}
      {unread.length === 0
        ? (handed.length === 0 ? <Empty>{t("shell.bells.noTickets")}</Empty> : null)
        : unread.map((ticket) => (
          <a key={ticket.id} className="popover-item" href={`/tickets/${ticket.uuid}`}>
            <strong>{ticket.contact?.name ?? `#${ticket.id}`}</strong>
            {ticket.lastMessageDeleted
              ? (
                <em className="popover-sub" data-testid="bell-ticket-deleted">
                  {t("tickets.message.deleted")}
                </em>
              )
              : <span className="popover-sub">{ticket.lastMessage ?? ""}</span>}
            {ticket.unreadMessages ? <span className="pill">{ticket.unreadMessages}</span> : null}
          </a>
        ))}
    </BellPopover>
  );
}

type Breach = { ticket: TicketView; kind: SlaKind; seen: boolean };
type Handed = { ticket: TicketView; fromName: string; seen: boolean };

/**
 * Issue 26: tickets that missed their queue's service-level target, told live to admins (the
 * `sla` channel reaches the admins' room only); each rings once. Opening the bell marks them seen.
 */
export function SlaBell() {
  const { t } = useTranslation();
  const [breaches, setBreaches] = useState<Breach[]>([]);
  useRealtime("sla", (event) => {
    playNotificationSound();
    setBreaches((old) =>
      [
        { ticket: event.ticket, kind: event.kind, seen: false },
        ...old.filter((b) => b.ticket.id !== event.ticket.id),
      ].slice(0, SLA_KEPT)
    );
  });
  const unseen = breaches.filter((b) => !b.seen).length;
  return (
    <BellPopover
      label={t("shell.bells.sla")}
      icon={<Timer size={20} aria-hidden="true" />}
      count={unseen}
      onOpen={() => setBreaches((old) => old.map((b) => ({ ...b, seen: true })))}
      testId="bell-sla"
    >
      {breaches.length === 0
        ? <Empty>{t("shell.bells.noSla")}</Empty>
        : breaches.map(({ ticket, kind }) => (
          <a
            key={ticket.id}
            className="popover-item"
            href={`/tickets/${ticket.uuid}`}
            data-testid="sla-item"
          >
            <strong>{ticket.contact?.name ?? `#${ticket.id}`}</strong>
            <span className="popover-sub">
              {t(`shell.bells.slaKind.${kind}`)} · {ticket.queue?.name ?? ""}
            </span>
          </a>
        ))}
    </BellPopover>
  );
}

function mergeById<T extends { id: number }>(first: T[], second: T[]): T[] {
  const seen = new Set(first.map((item) => item.id));
  return [...first, ...second.filter((item) => !seen.has(item.id))];
}

/** An announcement's picture: an authorised route, so fetched as a blob (seeds/000 section 7). */
function AnnouncementImage({ id, alt }: { id: number; alt: string }) {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    let objectUrl: string | null = null;
    api.get<Blob>(`/announcements/${id}/media`, { quiet: true }).then((blob) => {
      if (!(blob instanceof Blob)) return;
      objectUrl = URL.createObjectURL(blob);
      setUrl(objectUrl);
    }).catch(() => {});
    return () => {
      if (objectUrl) URL.revokeObjectURL(objectUrl);
    };
  }, [id]);
  return url ? <img className="popover-image" src={url} alt={alt} /> : null;
}

/**
 * The platform's active announcements (seeds/002 section 2.6; priority colours 1 red, 2 orange,
 * 3 grey) with the count of those the user has not seen; opening the bell marks them seen.
 */
export function AnnouncementsBell() {
  const { t } = useTranslation();
  const { items, reload } = useLiveList<AnnouncementView, "announcement">({
    enabled: true,
    path: "/announcements",
    query: { pageNumber: 1 },
    key: "records",
    channels: ["announcement"],
  });
  // The most urgent first (1 high), then the newest.
  const active = items.filter((a) => a.status).sort((x, y) =>
    x.priority - y.priority || y.id - x.id
  );
  const unread = active.filter((a) => !a.read);
  const markSeen = () => {
    if (unread.length === 0) return;
    api.post("/announcements/read", { ids: unread.map((a) => a.id) }, { quiet: true })
      .then(reload).catch(() => {});
  };
  return (
    <BellPopover
      label={t("shell.bells.announcements")}
      icon={<Megaphone size={20} aria-hidden="true" />}
      count={unread.length}
      onOpen={markSeen}
      testId="bell-announcements"
    >
      {active.length === 0
        ? <Empty>{t("shell.bells.noAnnouncements")}</Empty>
        : active.map((a) => (
          <div
            key={a.id}
            className={`popover-item ${PRIORITY_CLASS[a.priority] ?? PRIORITY_CLASS[3]}`}
            data-testid="announcement-item"
            data-priority={a.priority}
          >
            <strong>{a.title}</strong>
            <span className="popover-text">{a.text}</span>
            {a.mediaName ? <AnnouncementImage id={a.id} alt={a.title} /> : null}
          </div>
        ))}
    </BellPopover>
  );
}

/** Internal chats with unread messages (seeds/002 section 2.7). */
export function ChatBell({ user, chats }: { user: SessionUser; chats: Chat[] }) {
  const { t } = useTranslation();
  const unread = unreadChats(chats, user.id);
  return (
    <BellPopover
      label={t("shell.bells.chats")}
      icon={<MessagesSquare size={20} aria-hidden="true" />}
      count={unread.length}
      testId="bell-chats"
    >
      {unread.length === 0
        ? <Empty>{t("shell.bells.noChats")}</Empty>
        : unread.map((chat) => (
          <a key={chat.id} className="popover-item" href={`/chats/${chat.uuid}`}>
            <strong>{chat.title}</strong>
            <span className="popover-sub">{chat.lastMessage ?? ""}</span>
          </a>
        ))}
    </BellPopover>
  );
}

/**
 * The top bar's bells (seeds/000 section 2 'Top bar'): loaded after the page (TopBar.tsx), they
 * show once the user is known, which is after the first paint anyway.
 */
export function UserBells({ user, chats }: { user: SessionUser; chats: Chat[] }) {
  return (
    <>
      <TicketsBell user={user} />
      {can(user, "ticket:see-all") || (user.supervisedQueueIds?.length ?? 0) > 0
        ? <SlaBell />
        : null}
      <AnnouncementsBell />
      {user.company.plan?.useInternalChat === true ? <ChatBell user={user} chats={chats} /> : null}
      <span className="topbar-divider" />
    </>
  );
}
