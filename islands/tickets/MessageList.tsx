import { type UIEvent, useEffect, useLayoutEffect, useMemo, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { dayKind, ddMMyyyy, hhmm, MESSAGES_TOP_THRESHOLD_PX } from "./format.ts";
import { MessageBubble } from "./MessageBubble.tsx";
import { timeline } from "./messages_state.ts";
import type { Message } from "../../contract/ticket_types.ts";
import { useCompanyClock } from "../lib/clock.ts";
import type { Conversation } from "./use_messages.ts";
import { icon } from "../lib/ui/icon.tsx";

const ArrowDown = icon("arrow-down");
const LoaderCircle = icon("loader-circle");
const MessagesSquare = icon("messages-square");

export type MessageListProps = {
  conversation: Conversation;
  contactName: string;
  readOnly: boolean;
  onReply: (message: Message) => void;
  onDelete: (message: Message) => void;
};

/** How close to the bottom still counts as "at the bottom" (new messages then scroll in). */
const BOTTOM_SLACK_PX = 120;

/**
 * The conversation (seeds/000 section 2 'Ticket view'): day separators, 'conversation
 * ended/started' markers between tickets of the contact, older pages when scrolled within 50 px
 * of the top (the position kept), new messages scrolled into view when the reader is at the
 * bottom (or wrote them).
 */
export function MessageList(
  { conversation, contactName, readOnly, onReply, onDelete }: MessageListProps,
) {
  const { t } = useTranslation();
  const scroller = useRef<HTMLDivElement>(null);
  const content = useRef<HTMLDivElement>(null);
  const seen = useRef<{ first: number | null; last: number | null; height: number }>({
    first: null,
    last: null,
    height: 0,
  });
  const atBottom = useRef(true);
  /** A newer page (after a jump) is on its way: it comes in below without scrolling. */
  const newer = useRef(false);
  const [showJump, setShowJump] = useState(false);
  const items = useMemo(() => timeline(conversation.messages), [conversation.messages]);

  useLayoutEffect(() => {
    const el = scroller.current;
    if (!el) return;
    const messages = conversation.messages;
    const first = messages[0]?.id ?? null;
    const last = messages[messages.length - 1]?.id ?? null;
    const before = seen.current;
    if (before.first !== null && first !== before.first && last === before.last) {
      // An older page came in above: keep what the reader was looking at in place.
      el.scrollTop += el.scrollHeight - before.height;
    } else if (last !== before.last && newer.current) {
      newer.current = false;
    } else if (last !== before.last) {
      const mine = messages[messages.length - 1]?.fromMe === true;
      if (before.last === null || atBottom.current || mine) el.scrollTop = el.scrollHeight;
    }
    seen.current = { first, last, height: el.scrollHeight };
  }, [conversation.messages]);

  // Issue 28: the message jumped to (a search hit, a quote) in the middle of the view, marked.
  useLayoutEffect(() => {
    const el = scroller.current;
    const focus = conversation.focus;
    if (!el || focus === null || conversation.loading) return;
    const row = el.querySelector<HTMLElement>(`[data-message-id="${focus}"]`);
    if (!row) return;
    for (const old of el.querySelectorAll("[data-highlighted]")) {
      old.removeAttribute("data-highlighted");
    }
    row.setAttribute("data-highlighted", "true");
    atBottom.current = false;
    row.scrollIntoView({ block: "center" });
    seen.current.height = el.scrollHeight;
  }, [conversation.focus, conversation.loading, conversation.page]);

  // A first page that does not fill the view cannot be scrolled: the older one comes at once.
  useEffect(() => {
    const el = scroller.current;
    if (!el || conversation.loading || !conversation.hasMore) return;
    if (el.scrollHeight <= el.clientHeight + MESSAGES_TOP_THRESHOLD_PX) conversation.loadOlder();
  }, [conversation.loading, conversation.hasMore]);

  // Pictures and players change height after loading: stay at the bottom if we were there.
  useEffect(() => {
    const el = scroller.current;
    const inner = content.current;
    if (!el || !inner || typeof ResizeObserver === "undefined") return;
    const observer = new ResizeObserver(() => {
      if (atBottom.current) el.scrollTop = el.scrollHeight;
      seen.current.height = el.scrollHeight;
    });
    observer.observe(inner);
    return () => observer.disconnect();
  }, []);

  const onScroll = (event: UIEvent<HTMLDivElement>) => {
    const el = event.currentTarget;
    // After a jump, newer pages are still to come: the end of what is loaded is not the bottom.
    atBottom.current = conversation.newest <= 1 &&
      el.scrollHeight - el.scrollTop - el.clientHeight < BOTTOM_SLACK_PX;
    setShowJump(!atBottom.current);
    if (
      el.scrollTop < MESSAGES_TOP_THRESHOLD_PX && conversation.hasMore && !conversation.loading
    ) {
      conversation.loadOlder();
    }
    const nearBottom = el.scrollHeight - el.scrollTop - el.clientHeight < MESSAGES_TOP_THRESHOLD_PX;
    if (nearBottom && conversation.newest > 1 && !conversation.loading) {
      newer.current = true;
      conversation.loadNewer();
    }
  };

  const jump = () => {
    // After a jump to an older message, the newest page is read again instead.
    if (conversation.newest > 1) {
      conversation.toLatest();
      return;
    }
    const el = scroller.current;
    if (el) el.scrollTo({ top: el.scrollHeight, behavior: "smooth" });
  };

  const zone = useCompanyClock().zone;
  const dayLabel = (iso: string) => {
    const kind = dayKind(iso, zone);
    return kind === "today"
      ? t("tickets.day.today")
      : kind === "yesterday"
      ? t("tickets.day.yesterday")
      : kind;
  };
  const stamp = (iso: string) => `${ddMMyyyy(new Date(iso), zone)} ${hhmm(new Date(iso), zone)}`;
  const firstLoad = conversation.loading && conversation.page === 0;

  return (
    <div className="ml-wrap">
      <div
        className="ml"
        ref={scroller}
        onScroll={onScroll}
        data-testid="messages"
        aria-busy={conversation.loading || undefined}
      >
        <div className="ml-inner" ref={content}>
          {conversation.loading && conversation.page > 0
            ? (
              <div className="ml-older" aria-hidden="true">
                <LoaderCircle size={18} className="spin" />
              </div>
            )
            : null}
          {firstLoad
            ? (
              <div className="ml-skeleton" aria-hidden="true">
                {[180, 260, 140, 300, 200].map((w, i) => (
                  <div key={i} className="mb-row" data-me={i % 2 === 1 || undefined}>
                    <span className="skeleton" style={{ width: w, height: 38, borderRadius: 12 }} />
                  </div>
                ))}
              </div>
            )
            : null}
          {!firstLoad && items.length === 0
            ? (
              <div className="empty-state ml-empty">
                <MessagesSquare size={32} aria-hidden="true" />
                {t("tickets.message.none")}
              </div>
            )
            : null}
          {items.map((item) => {
            switch (item.kind) {
              case "day":
                return (
                  <div key={item.key} className="ml-day" role="separator">
                    <span>{dayLabel(item.at)}</span>
                  </div>
                );
              case "ended":
                return (
                  <div key={item.key} className="ml-marker" data-kind="ended" role="separator">
                    <span>{t("tickets.marker.ended", { date: stamp(item.at) })}</span>
                  </div>
                );
              case "started":
                return (
                  <div key={item.key} className="ml-marker" data-kind="started" role="separator">
                    <span>{t("tickets.marker.started", { date: stamp(item.at) })}</span>
                  </div>
                );
              case "message":
                return (
                  <MessageBubble
                    key={item.key}
                    message={item.message}
                    first={item.first}
                    contactName={contactName}
                    readOnly={readOnly}
                    onReply={onReply}
                    onDelete={onDelete}
                    onQuote={conversation.jumpTo}
                  />
                );
            }
          })}
        </div>
      </div>
      {showJump
        ? (
          <button
            type="button"
            className="ml-jump"
            onClick={jump}
            aria-label={t("tickets.message.toBottom")}
          >
            <ArrowDown size={18} aria-hidden="true" />
          </button>
        )
        : null}
    </div>
  );
}
