import { useCallback, useEffect, useRef, useState } from "react";
import { api, type Query } from "../api.ts";
import { type ChannelEvent, useChannels, useRealtime, useRoomSync } from "../socket.ts";
import type { Channel } from "../../../contract/events.ts";
import type { ConnectionSummary } from "../../../contract/types.ts";
import { connectionsNeedAttention } from "./menu.ts";

/** Seeds/000 section 9: the connections alert appears after a 2 s delay. */
export const CONNECTION_ALERT_DELAY_MS = 2000;

/** Lists come as an array or as `{ <records>: [...] }` (seeds/000 section 7). */
export function listOf<T>(answer: unknown, key: string): T[] {
  if (Array.isArray(answer)) return answer as T[];
  if (answer && typeof answer === "object") {
    const value = (answer as Record<string, unknown>)[key];
    if (Array.isArray(value)) return value as T[];
  }
  return [];
}

/**
 * A list that the shell keeps fresh: fetched once, then again (debounced) whenever one of the
 * realtime channels speaks. Errors are quiet: the endpoint may belong to a feature the plan
 * lacks, or to an area not built yet.
 */
export function useLiveList<T, C extends Channel>(
  options: {
    enabled: boolean;
    path: string;
    query?: Query;
    key: string;
    channels: readonly C[];
    onEvent?: (event: ChannelEvent<C>) => void;
    /**
     * The list after an event that carries everything needed (no read then); null: read again.
     * Without it every event reads the list again.
     */
    apply?: (items: T[], event: ChannelEvent<C>) => T[] | null;
  },
): { items: T[]; reload: () => void } {
  const [items, setItems] = useState<T[]>([]);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const { enabled, path, key } = options;
  const queryKey = JSON.stringify(options.query ?? {});
  // A read made before the socket was ready may miss what changed until then (a chat read on
  // the page that just opened): it is made again once the socket is ready.
  const reread = useRef(() => {});
  const markRead = useRoomSync([], () => reread.current());
  // Only the latest read's answer counts (an older one may land after it).
  const seq = useRef(0);
  const inFlight = useRef(false);
  const load = useCallback(() => {
    if (!enabled) return;
    markRead();
    const mine = ++seq.current;
    inFlight.current = true;
    api.get<unknown>(path, { query: JSON.parse(queryKey), quiet: true })
      .then((answer) => {
        if (mine === seq.current) setItems(listOf<T>(answer, key));
      })
      .catch(() => {})
      .finally(() => {
        if (mine === seq.current) inFlight.current = false;
      });
  }, [enabled, path, key, queryKey]);
  reread.current = load;
  useEffect(load, [load]);
  useEffect(() => () => {
    if (timer.current) clearTimeout(timer.current);
  }, []);
  const onEvent = options.onEvent;
  const itemsRef = useRef(items);
  itemsRef.current = items;
  useChannels<C>(options.channels, (event) => {
    if (!enabled) return;
    onEvent?.(event);
    const applied = options.apply?.(itemsRef.current, event) ?? null;
    if (applied) {
      itemsRef.current = applied;
      setItems(applied);
      // A read still running may answer with the list from before this event: read again.
      if (inFlight.current) load();
      return;
    }
    if (timer.current) clearTimeout(timer.current);
    timer.current = setTimeout(load, 400);
  });
  return { items, reload: load };
}

/**
 * The connections entry's alert (seeds/000 section 2 'Side menu'): any connection in qrcode,
 * PAIRING, DISCONNECTED, TIMEOUT or OPENING, shown 2 s after load, then kept current from the
 * whatsappSession and whatsapp events.
 */
export function useConnectionsAlert(enabled: boolean): boolean {
  const [list, setList] = useState<ConnectionSummary[]>([]);
  const [armed, setArmed] = useState(false);
  useEffect(() => {
    if (!enabled) return;
    api.get<unknown>("/whatsapp", { query: { session: 0 }, quiet: true })
      .then((answer) => setList(listOf<ConnectionSummary>(answer, "whatsapps")))
      .catch(() => {});
    const timer = setTimeout(() => setArmed(true), CONNECTION_ALERT_DELAY_MS);
    return () => clearTimeout(timer);
  }, [enabled]);
  const upsert = ({ id, name, status }: ConnectionSummary) => {
    const c: ConnectionSummary = { id, name, status };
    setList((old) =>
      old.some((o) => o.id === c.id) ? old.map((o) => o.id === c.id ? c : o) : [...old, c]
    );
  };
  const remove = (id: number) => setList((old) => old.filter((o) => o.id !== id));
  useRealtime("whatsappSession", (data) => upsert(data.session));
  useRealtime("whatsapp", (data) => {
    if (data.action === "update") upsert(data.whatsapp);
    else remove(data.whatsappId);
  });
  return enabled && armed && connectionsNeedAttention(list);
}
