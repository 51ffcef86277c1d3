import { useCallback, useEffect, useMemo, useReducer, useRef } from "react";
import { api, type Query } from "../lib/api.ts";
import { type Room, useRealtime, useRoomSync } from "../lib/socket.ts";
import { FETCH_DEBOUNCE_MS } from "./format.ts";
import { EMPTY_LIST, listReducer, type ListScope, type ListState } from "./list_state.ts";
import type { TicketPage, TicketStatus } from "../../contract/ticket_types.ts";

export type TicketListParams = {
  status?: TicketStatus;
  searchParam?: string;
  tagIds?: number[];
  userIds?: number[];
  scope: Omit<ListScope, "status">;
  /** Whether queueIds go to the server (a user with every queue selected leaves it out). */
  sendQueueIds: boolean;
  /** False while the list cannot be shown yet (e.g. the company's queues are loading). */
  enabled: boolean;
  /** Issue 26: "timeLeft" asks for the closest service-level target first. */
  sort?: "updatedAt" | "timeLeft";
};

export type TicketList = ListState & { loadMore: () => void };

/**
 * One ticket list: GET /api/tickets pages (debounced 500 ms, seeds/000 section 9), the next page
 * on demand (`loadMore`, the list calls it within 100 px of the bottom), kept live by the
 * ticket, appMessage and contact channels under list_state.ts's rules. A first page read before
 * the socket's rooms were confirmed (page load, reconnect) is read again: see useRoomSync.
 */
export function useTicketList(params: TicketListParams): TicketList {
  const scope: ListScope = { ...params.scope, status: params.status };
  const scopeRef = useRef(scope);
  scopeRef.current = scope;
  // One stable reducer reading the current scope: a filter change must not lose queued events.
  const reducer = useMemo(
    () => (state: ListState, action: Parameters<ReturnType<typeof listReducer>>[1]) =>
      listReducer(scopeRef.current)(state, action),
    [],
  );
  const [state, dispatch] = useReducer(reducer, EMPTY_LIST);

  const query: Query = {
    status: params.status,
    searchParam: params.searchParam?.trim() || undefined,
    showAll: params.scope.showAll ? "true" : "false",
    queueIds: params.sendQueueIds ? params.scope.queueIds : undefined,
    tags: params.tagIds?.length ? params.tagIds : undefined,
    users: params.userIds?.length ? params.userIds : undefined,
    sort: params.sort === "timeLeft" ? "timeLeft" : undefined,
  };
  // The filters, and the client-side parts of the scope, as one value that effects can watch.
  const key = JSON.stringify([query, params.scope.noQueue, params.enabled]);
  const keyRef = useRef(key);
  keyRef.current = key;
  const pageRef = useRef(0);
  const seq = useRef(0);
  /** The read whose answer the list shows last (see fetchPage). */
  const shown = useRef(0);
  /** Whether page 1 was read since the list opened: the first read does not wait (issue 49). */
  const readOnce = useRef(false);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);

  // The list follows the status rooms TicketsWorkspace joins; a read before they are confirmed
  // is read again once they are.
  const rooms = useMemo<Room[]>(
    () =>
      (params.status ? [params.status] : ["open", "pending", "closed"]).map((
        s,
      ) => ["joinTickets", s]),
    [params.status],
  );
  const markRead = useRoomSync(rooms, () => {
    if (params.enabled) fetchPage(1, 0);
  });

  const fetchPage = useCallback((pageNumber: number, delay = FETCH_DEBOUNCE_MS) => {
    if (timer.current) clearTimeout(timer.current);
    const mine = ++seq.current;
    dispatch({ type: "loading" });
    timer.current = setTimeout(() => {
      markRead();
      api.get<TicketPage>("/tickets", { query: { ...JSON.parse(key)[0], pageNumber } })
        .then((answer) => {
          // A first page overtaken by a read again of the same filters (the rooms confirmed
          // while it ran) is still shown: the list appears now and the newer read corrects it,
          // instead of waiting a whole round trip more (issue 49: a page usable on a phone).
          const overtaken = mine !== seq.current;
          if (
            overtaken &&
            !(pageNumber === 1 && pageRef.current <= 1 && key === keyRef.current &&
              mine > shown.current)
          ) return;
          if (mine < shown.current) return;
          shown.current = mine;
          pageRef.current = pageNumber;
          dispatch({
            type: "page",
            page: pageNumber,
            tickets: answer.tickets,
            count: answer.count,
            hasMore: answer.hasMore,
            overtaken,
          });
        })
        .catch(() => {
          if (mine === seq.current) {
            dispatch({ type: "page", page: pageNumber, tickets: [], hasMore: false });
          }
        });
    }, delay);
  }, [key]);

  useEffect(() => {
    if (!params.enabled) return;
    pageRef.current = 0;
    // The debounce is for typing: the list's first read, on the page's load, goes at once.
    fetchPage(1, readOnce.current ? FETCH_DEBOUNCE_MS : 0);
    readOnce.current = true;
    return () => {
      if (timer.current) clearTimeout(timer.current);
      seq.current++;
    };
  }, [fetchPage, params.enabled]);

  const loadMore = useCallback(() => {
    if (!params.enabled) return;
    fetchPage(pageRef.current + 1);
  }, [fetchPage, params.enabled]);

  useRealtime("ticket", (event) => {
    if (event.action === "update") {
      dispatch({ type: "update", ticket: event.ticket });
    } else if (event.action === "delete") dispatch({ type: "delete", ticketId: event.ticketId });
    else if (event.action === "updateUnread") {
      dispatch({ type: "unread", ticketId: event.ticketId });
    }
  });
  useRealtime("appMessage", (event) => {
    if (event.action !== "create") return;
    dispatch({ type: "message", ticket: event.ticket, fromMe: event.message.fromMe });
  });
  useRealtime("contact", (event) => {
    if (event.action === "update") dispatch({ type: "contact", contact: event.record });
  });
  // Issue 28: the user's own pins, from any of their tabs. An unpinned ticket goes back to its
  // place in the list's order, which only the server knows (sort, filters): page 1 again.
  useRealtime("ticketPin", (event) => {
    dispatch({ type: "pin", ticketId: event.ticketId, pinned: event.action === "pin" });
    if (event.action === "unpin" && params.enabled) fetchPage(1);
  });

  return { ...state, loading: state.loading || !params.enabled, loadMore };
}
