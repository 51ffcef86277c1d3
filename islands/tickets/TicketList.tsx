import { type UIEvent, useCallback } from "react";
import { useTranslation } from "react-i18next";
import { LIST_BOTTOM_THRESHOLD_PX } from "./format.ts";
import { TicketItem } from "./TicketItem.tsx";
import type { Ticket } from "../../contract/ticket_types.ts";
import type { TicketList as ListData } from "./use_ticket_list.ts";
import { useNow } from "./SlaBadge.tsx";
import { byTimeLeft } from "../../contract/sla.ts";
import { icon } from "../lib/ui/icon.tsx";

const Inbox = icon("inbox");

export type TicketListProps = {
  list: ListData;
  selectedUuid: string | null;
  narrow: boolean;
  admin: boolean;
  showUser: boolean;
  onOpen: (ticket: Ticket) => void;
  onAccept: (ticket: Ticket) => void;
  onPeek: (ticket: Ticket) => void;
  acceptingId: number | null;
  testId: string;
  hidden?: boolean;
  /** Issue 26: closest service-level target first (live additions keep that order too). */
  sort?: "updatedAt" | "timeLeft";
};

/** The list's element id: the tabs that show it name it in aria-controls. */
export const listElementId = (testId: string) => `tm-${testId}`;

/** A scrolling ticket list; the next page loads within 100 px of the bottom (seeds/000 s. 9). */
export function TicketList(props: TicketListProps) {
  const { t } = useTranslation();
  const { list } = props;
  const onScroll = useCallback((event: UIEvent<HTMLDivElement>) => {
    const el = event.currentTarget;
    if (!list.hasMore || list.loading) return;
    if (el.scrollHeight - (el.scrollTop + el.clientHeight) < LIST_BOTTOM_THRESHOLD_PX) {
      list.loadMore();
    }
  }, [list.hasMore, list.loading, list.loadMore]);

  const first = list.loading && list.page === 0;
  const now = useNow();
  const tickets = props.sort === "timeLeft" ? byTimeLeft(list.tickets, now) : list.tickets;
  return (
    <div
      className="tl"
      id={listElementId(props.testId)}
      onScroll={onScroll}
      hidden={props.hidden}
      data-testid={props.testId}
      aria-busy={list.loading || undefined}
    >
      {first
        ? (
          <ul className="tl-items" aria-hidden="true">
            {[0, 1, 2, 3, 4, 5].map((i) => (
              <li key={i} className="ti ti-skeleton">
                <span className="skeleton tk-avatar" style={{ width: 44, height: 44 }} />
                <span className="ti-body">
                  <span className="skeleton" style={{ height: 14, width: "60%" }} />
                  <span className="skeleton" style={{ height: 12, width: "85%" }} />
                </span>
              </li>
            ))}
          </ul>
        )
        : tickets.length === 0
        ? (
          <div className="empty-state tl-empty">
            <Inbox size={36} aria-hidden="true" />
            <span>{t("tickets.list.empty")}</span>
          </div>
        )
        : (
          <ul className="tl-items">
            {tickets.map((ticket) => (
              <TicketItem
                key={ticket.id}
                ticket={ticket}
                selected={ticket.uuid === props.selectedUuid}
                narrow={props.narrow}
                admin={props.admin}
                showUser={props.showUser}
                onOpen={props.onOpen}
                onAccept={props.onAccept}
                onPeek={props.onPeek}
                accepting={props.acceptingId === ticket.id}
                now={now}
              />
            ))}
            {list.loading ? <li className="tl-more">{t("common.loading")}</li> : null}
          </ul>
        )}
    </div>
  );
}
