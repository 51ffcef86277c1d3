import { useState } from "react";
import { useTranslation } from "react-i18next";
import { api } from "../lib/api.ts";
import { useRealtime } from "../lib/socket.ts";
import { IconButton } from "../lib/ui/Button.tsx";
import { lazyPart } from "../lib/ui/deferred.tsx";
import { icon } from "../lib/ui/icon.tsx";

const Pin = icon("pin");
const PinOff = icon("pin-off");
const TextSearch = icon("text-search");

const ConversationSearch = lazyPart(() =>
  import("./ConversationSearch.tsx").then((m) => m.default)
);

/**
 * Issue 28: the ticket header's own tools: find in the conversation (a panel loaded when
 * opened; a hit is shown through `onJump`) and the user's pin.
 */
export function HeaderTools(
  { ticketId, pinned, onJump }: {
    ticketId: number;
    pinned: boolean;
    onJump: (messageId: number) => void;
  },
) {
  const { t } = useTranslation();
  const [searching, setSearching] = useState(false);
  return (
    <>
      <IconButton
        label={t("tickets.find.open")}
        onClick={() => setSearching(!searching)}
        aria-expanded={searching}
        data-testid="conversation-search-open"
      >
        <TextSearch size={19} aria-hidden="true" />
      </IconButton>
      <PinButton key={ticketId} ticketId={ticketId} pinned={pinned} />
      {searching
        ? (
          <ConversationSearch
            ticketId={ticketId}
            onJump={onJump}
            onClose={() => setSearching(false)}
          />
        )
        : null}
    </>
  );
}

/**
 * Issue 28: pins the ticket to the top of the user's own lists (POST/DELETE
 * /api/tickets/:id/pin); the other tabs of the user hear it on `ticketPin`. Past the limit the
 * server's ERR_PIN_LIMIT is shown by the api client.
 */
export function PinButton({ ticketId, pinned }: { ticketId: number; pinned: boolean }) {
  const { t } = useTranslation();
  const [on, setOn] = useState(pinned);
  const [busy, setBusy] = useState(false);
  useRealtime("ticketPin", (event) => {
    if (event.ticketId === ticketId) setOn(event.action === "pin");
  });
  const toggle = async () => {
    setBusy(true);
    try {
      if (on) await api.delete(`/tickets/${ticketId}/pin`);
      else await api.post(`/tickets/${ticketId}/pin`, {});
      setOn(!on);
    } catch {
      // shown by the api client
    } finally {
      setBusy(false);
    }
  };
  const label = on ? t("tickets.pin.remove") : t("tickets.pin.add");
  return (
    <IconButton
      label={label}
      onClick={toggle}
      disabled={busy}
      aria-pressed={on}
      data-testid="ticket-pin"
    >
      {on ? <PinOff size={19} aria-hidden="true" /> : <Pin size={19} aria-hidden="true" />}
    </IconButton>
  );
}
