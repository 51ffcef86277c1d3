import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { api } from "../api.ts";
import { sessionUser, setSessionUser } from "../session.ts";
import { useRealtime } from "../socket.ts";
import { Button } from "../ui/Button.tsx";
import { icon } from "../ui/icon.tsx";
import type { TakenBackNotice as Notice } from "../../../contract/ticket_types.ts";

const ArrowRightLeft = icon("arrow-right-left");

/**
 * Issue 50 item 17: the tickets distribution took back from the user while they were offline
 * (past the company's minutes, untouched), read when they come back: where each went, until they
 * close the notice. Live too, for a tab left open while the socket was away. The session says how
 * many there are (`unseen`, GET /api/auth/me): the list is asked for only then, not on every page.
 */
export function TakenBackNotice({ unseen }: { unseen: number }) {
  const { t } = useTranslation();
  const [notices, setNotices] = useState<Notice[]>([]);
  useEffect(() => {
    if (unseen === 0) return;
    api.get<Notice[]>("/tickets/taken-back", { quiet: true }).then(setNotices).catch(() => {});
  }, [unseen]);
  useRealtime("ticketTakenBack", (event) => {
    if (event.action !== "lost") return;
    const { notice } = event;
    setNotices((old) => [...old.filter((n) => n.id !== notice.id), notice]);
  });
  if (notices.length === 0) return null;
  const close = () => {
    setNotices([]);
    // The tab's copy of the session (the next page's first paint) no longer counts them.
    const user = sessionUser.value;
    if (user?.takenBack) setSessionUser({ ...user, takenBack: 0 });
    api.post("/tickets/taken-back/seen", undefined, { quiet: true }).catch(() => {});
  };
  return (
    <div className="subscription-warning taken-back" role="status" data-testid="taken-back">
      <ArrowRightLeft size={16} aria-hidden="true" />
      <div className="taken-back-text">
        <span>{t("shell.takenBack.title", { count: notices.length })}</span>
        <ul>
          {notices.map((n) => (
            <li key={n.id}>
              <a href={`/tickets/${n.ticketUuid}`}>{n.contactName} (#{n.ticketId})</a>{" "}
              {n.toUserName === null
                ? t("shell.takenBack.toQueue")
                : t("shell.takenBack.toUser", { user: n.toUserName })}
            </li>
          ))}
        </ul>
      </div>
      <Button variant="ghost" onClick={close} data-testid="taken-back-ok">
        {t("shell.takenBack.ok")}
      </Button>
    </div>
  );
}
