import { useCallback, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { realtime } from "../lib/socket.ts";
import "./dialog_styles.ts";
import "../lib/ui/form_styles.ts";
import { TicketsManager } from "./TicketsManager.tsx";
import { deferredModule, lazyPart } from "../lib/ui/deferred.tsx";
import { icon } from "../lib/ui/icon.tsx";

/** The notifications' rules and sound: they act on later events, so they load after the page. */
const NOTIFY = deferredModule(() => import("../lib/ticket_notify.ts"));

const List = icon("list");
const MessageSquareText = icon("message-square-text");
const MousePointerClick = icon("mouse-pointer-click");
// The chat column (messages, media, input, the ticket's menus) loads when a ticket is opened: the
// list paints first without it (the page's first-load weight, tests/bench/page_weight_bench.ts).
const TicketView = lazyPart(
  () => import("./TicketView.tsx").then((m) => m.TicketView),
  <div className="tw-loading" aria-busy="true" />,
);

type MobileTab = "list" | "ticket";

function uuidOfPath(path: string): string | null {
  const match = path.match(/^\/tickets\/([^/?#]+)/);
  return match ? decodeURIComponent(match[1]) : null;
}

function Welcome({ onPick }: { onPick: () => void }) {
  const { t } = useTranslation();
  return (
    <div className="tw-welcome" data-testid="tickets-welcome">
      <span className="tw-logo" aria-hidden="true">B</span>
      <h2>{t("tickets.welcome.title")}</h2>
      <p>{t("tickets.welcome.text")}</p>
      <button type="button" className="btn btn-secondary tw-pick" onClick={onPick}>
        <MousePointerClick size={16} aria-hidden="true" />
        {t("tickets.welcome.pick")}
      </button>
    </div>
  );
}

/**
 * The /tickets workspace (seeds/000 section 2 'Tickets page'): on wide screens the list on the
 * left and the chat on the right (a welcome logo when no ticket is chosen); on narrow screens a
 * bottom tab switches between the chat ('Ticket') and the list ('Atendimentos'). Choosing a
 * ticket changes the address to /tickets/{uuid} without reloading the page (back and forward
 * work), so the socket and the lists stay as they are.
 */
export function TicketsWorkspace({ initialUuid }: { initialUuid: string | null }) {
  const { t } = useTranslation();
  const [uuid, setUuid] = useState<string | null>(initialUuid);
  const [tab, setTab] = useState<MobileTab>(initialUuid ? "ticket" : "list");

  const open = useCallback((next: string) => {
    if (location.pathname !== `/tickets/${next}`) history.pushState(null, "", `/tickets/${next}`);
    setUuid(next);
    setTab("ticket");
  }, []);
  const leave = useCallback(() => {
    if (location.pathname !== "/tickets") history.pushState(null, "", "/tickets");
    setUuid(null);
    setTab("list");
  }, []);

  useEffect(() => {
    const onPop = () => {
      const next = uuidOfPath(location.pathname);
      setUuid(next);
      setTab(next ? "ticket" : "list");
    };
    addEventListener("popstate", onPop);
    return () => removeEventListener("popstate", onPop);
  }, []);

  // The lists of every status stay live for the page's lifetime (seeds/000 section 7).
  useEffect(() => {
    const leaves = ["open", "pending", "closed"].map((s) => realtime.join("joinTickets", s));
    return () => leaves.forEach((fn) => fn());
  }, []);

  useEffect(() => {
    let alive = true;
    void NOTIFY.load().then((notify) => {
      if (!alive) return;
      notify.requestNotificationPermission();
      notify.setTicketOpener(open);
    });
    return () => {
      alive = false;
      NOTIFY.current?.setTicketOpener(null);
    };
  }, [open]);

  return (
    <div className="tw" data-mobile-tab={tab}>
      <div className="tw-grid">
        <section className="tw-side" aria-label={t("tickets.listLabel")}>
          <TicketsManager selectedUuid={uuid} onOpen={open} />
        </section>
        <section className="tw-main" aria-label={t("tickets.chatLabel")}>
          {uuid
            ? <TicketView key={uuid} uuid={uuid} onLeave={leave} onBack={() => setTab("list")} />
            : <Welcome onPick={() => setTab("list")} />}
        </section>
      </div>
      <nav className="tw-tabs" aria-label={t("tickets.title")}>
        <button
          type="button"
          className="tw-tab"
          aria-current={tab === "ticket" ? "page" : undefined}
          onClick={() => setTab("ticket")}
          data-testid="mobile-tab-ticket"
        >
          <MessageSquareText size={20} aria-hidden="true" />
          {t("tickets.mobile.ticket")}
        </button>
        <button
          type="button"
          className="tw-tab"
          aria-current={tab === "list" ? "page" : undefined}
          onClick={() => setTab("list")}
          data-testid="mobile-tab-list"
        >
          <List size={20} aria-hidden="true" />
          {t("tickets.mobile.list")}
        </button>
      </nav>
    </div>
  );
}
