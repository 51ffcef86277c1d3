import { useCallback, useEffect, useMemo, useReducer, useRef } from "react";
import { api } from "../lib/api.ts";
import { type Room, useRealtime, useRoomSync } from "../lib/socket.ts";
import { FETCH_DEBOUNCE_MS } from "./format.ts";
import { EMPTY_MESSAGES, messagesReducer, type MessagesState } from "./messages_state.ts";
import type { Message, MessagePage } from "../../contract/ticket_types.ts";

export type Conversation = MessagesState & {
  loadOlder: () => void;
  /** Issue 28: the next newer page after a jump (nothing when page 1 is loaded). */
  loadNewer: () => void;
  /** Issue 28: shows the page around a message and highlights it. */
  jumpTo: (messageId: number) => void;
  /** Issue 28: back to the newest page after a jump (the view's 'to the bottom' button). */
  toLatest: () => void;
  /** Shows a message at once (the answer of a send), before its socket event. */
  upsert: (message: Message) => void;
};

/**
 * A ticket's conversation: GET /api/messages/:ticketId pages (debounced 500 ms, seeds/000
 * section 9; older pages on demand) and the live appMessage events of the ticket. Reading a
 * page marks the ticket read on the server unless `peek` (the admins' read-only look).
 * While the page is visible, a message that arrives in the ticket on screen is marked read
 * too (page 1 read again, quietly), so that it does not count as unread for the attendant.
 */
export function useMessages(ticketId: number | null, peek = false): Conversation {
  const [state, dispatch] = useReducer(messagesReducer, EMPTY_MESSAGES);
  const pageRef = useRef(0);
  const seq = useRef(0);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const readTimer = useRef<ReturnType<typeof setTimeout> | null>(null);

  // TicketView joins the ticket's chat room (a peek joins none: it only re-reads after a
  // reconnect); a read before the join is confirmed is read again once it is.
  const rooms = useMemo<Room[]>(
    () => ticketId === null || peek ? [] : [["joinChatBox", ticketId]],
    [ticketId, peek],
  );
  const markRead = useRoomSync(rooms, () => {
    if (ticketId !== null) fetchPage(1, 0);
  });

  const fetchPage = useCallback((pageNumber: number, delay = FETCH_DEBOUNCE_MS) => {
    if (ticketId === null) return;
    if (timer.current) clearTimeout(timer.current);
    const mine = ++seq.current;
    dispatch({ type: "loading" });
    timer.current = setTimeout(() => {
      markRead();
      api.get<MessagePage>(`/messages/${ticketId}`, {
        query: { pageNumber, peek: peek ? "true" : undefined },
      })
        .then((answer) => {
          if (mine !== seq.current) return;
          pageRef.current = pageNumber;
          dispatch({
            type: "page",
            page: pageNumber,
            messages: answer.messages,
            hasMore: answer.hasMore,
          });
        })
        .catch(() => {
          if (mine === seq.current) {
            dispatch({ type: "page", page: pageNumber, messages: [], hasMore: false });
          }
        });
    }, delay);
  }, [ticketId, peek]);

  useEffect(() => {
    dispatch({ type: "reset" });
    pageRef.current = 0;
    fetchPage(1);
    return () => {
      if (timer.current) clearTimeout(timer.current);
      if (readTimer.current) clearTimeout(readTimer.current);
      seq.current++;
    };
  }, [fetchPage]);

  const loadOlder = useCallback(() => {
    if (pageRef.current > 0) fetchPage(pageRef.current + 1);
  }, [fetchPage]);

  useRealtime("appMessage", (event) => {
    if (ticketId === null) return;
    if (event.message.ticketId !== ticketId && event.ticket.id !== ticketId) return;
    dispatch({ type: "upsert", message: event.message });
    if (
      !peek && event.action === "create" && !event.message.fromMe && !document.hidden
    ) {
      if (readTimer.current) clearTimeout(readTimer.current);
      readTimer.current = setTimeout(() => {
        api.get(`/messages/${ticketId}`, { query: { pageNumber: 1 }, quiet: true })
          .catch(() => {});
      }, FETCH_DEBOUNCE_MS);
    }
  });

  const upsert = useCallback((message: Message) => dispatch({ type: "upsert", message }), []);

  const stateRef = useRef(state);
  stateRef.current = state;
  const newerBusy = useRef(false);
  const jumpTo = useCallback((messageId: number) => {
    if (ticketId === null) return;
    if (stateRef.current.messages.some((m) => m.id === messageId)) {
      dispatch({ type: "focus", focus: messageId });
      return;
    }
    const mine = ++seq.current;
    if (timer.current) clearTimeout(timer.current);
    dispatch({ type: "loading" });
    api.get<MessagePage>(`/messages/${ticketId}`, {
      query: { around: messageId, peek: peek ? "true" : undefined },
    }).then((answer) => {
      if (mine !== seq.current) return;
      const page = answer.pageNumber ?? 1;
      pageRef.current = page;
      dispatch({
        type: "jump",
        page,
        messages: answer.messages,
        hasMore: answer.hasMore,
        focus: messageId,
      });
    }).catch(() => {
      if (mine === seq.current) {
        dispatch({ type: "page", page: pageRef.current, messages: [], hasMore: false });
      }
    });
  }, [ticketId, peek]);

  const loadNewer = useCallback(() => {
    const newest = stateRef.current.newest;
    if (ticketId === null || newest <= 1 || newerBusy.current) return;
    newerBusy.current = true;
    api.get<MessagePage>(`/messages/${ticketId}`, {
      query: { pageNumber: newest - 1, peek: peek ? "true" : undefined },
    }).then((answer) => {
      dispatch({ type: "newer", page: newest - 1, messages: answer.messages });
    }).catch(() => {}).finally(() => {
      newerBusy.current = false;
    });
  }, [ticketId, peek]);

  const toLatest = useCallback(() => {
    dispatch({ type: "reset" });
    pageRef.current = 0;
    fetchPage(1, 0);
  }, [fetchPage]);

  return { ...state, loadOlder, loadNewer, jumpTo, toLatest, upsert };
}
