import { useEffect, useId, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { api } from "../lib/api.ts";
import { useCompanyClock } from "../lib/clock.ts";
import { plainText } from "../lib/ui/wa_text.tsx";
import { ddMMyyyy, FETCH_DEBOUNCE_MS, hhmm } from "./format.ts";
import type { MessageBase, MessageSearchAnswer } from "../../contract/ticket_types.ts";
import { LIMITS } from "../../contract/validation.ts";

/**
 * Issue 28: find in a conversation. Searches the contact's whole history (GET
 * /api/messages/:ticketId/search, 500 ms after the last keystroke) and lists the hits with their
 * dates; choosing one shows the page around it in the conversation, highlighted (`onJump`).
 */
export default function ConversationSearch(
  { ticketId, onJump, onClose }: {
    ticketId: number;
    onJump: (messageId: number) => void;
    onClose: () => void;
  },
) {
  const { t } = useTranslation();
  const zone = useCompanyClock().zone;
  const inputId = useId();
  const [text, setText] = useState("");
  const [hits, setHits] = useState<MessageBase[] | null>(null);
  const [loading, setLoading] = useState(false);
  const seq = useRef(0);

  useEffect(() => {
    const q = text.trim();
    const mine = ++seq.current;
    if (!q) {
      setHits(null);
      setLoading(false);
      return;
    }
    setLoading(true);
    const timer = setTimeout(() => {
      api.get<MessageSearchAnswer>(`/messages/${ticketId}/search`, { query: { q } })
        .then((answer) => mine === seq.current && setHits(answer.messages))
        .catch(() => mine === seq.current && setHits([]))
        .finally(() => mine === seq.current && setLoading(false));
    }, FETCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [text, ticketId]);

  return (
    <div
      className="cs-panel"
      role="search"
      data-testid="conversation-search"
      onKeyDown={(e) => {
        if (e.key === "Escape") onClose();
      }}
    >
      <label htmlFor={inputId} className="visually-hidden">{t("tickets.find.label")}</label>
      <input
        id={inputId}
        className="input"
        type="search"
        autoFocus
        maxLength={LIMITS.conversationSearch.max}
        placeholder={t("tickets.find.placeholder")}
        value={text}
        onChange={(e) => setText(e.target.value)}
        data-testid="conversation-search-input"
      />
      <div className="cs-results" aria-live="polite" aria-busy={loading || undefined}>
        {hits !== null && hits.length === 0 && !loading
          ? <p className="cs-empty">{t("tickets.find.none")}</p>
          : null}
        {hits && hits.length > 0
          ? (
            <ul>
              {hits.map((hit) => (
                <li key={hit.id}>
                  <button
                    type="button"
                    className="cs-hit"
                    data-testid="conversation-search-hit"
                    data-message-id={hit.id}
                    onClick={() => {
                      onJump(hit.id);
                      onClose();
                    }}
                  >
                    <time dateTime={hit.createdAt}>
                      {`${ddMMyyyy(new Date(hit.createdAt), zone)} ${
                        hhmm(new Date(hit.createdAt), zone)
                      }`}
                    </time>
                    <span>{plainText(hit.body)}</span>
                  </button>
                </li>
              ))}
            </ul>
          )
          : null}
      </div>
    </div>
  );
}
