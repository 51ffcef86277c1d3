import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import type { TicketSummaryView } from "../../contract/assist_types.ts";
import type { MessageBase } from "../../contract/ticket_types.ts";
import { api } from "../lib/api.ts";
import { useUser } from "../lib/session.ts";
import { useRealtime } from "../lib/socket.ts";
import { IconButton } from "../lib/ui/Button.tsx";
import { icon } from "../lib/ui/icon.tsx";

const Sparkles = icon("sparkles");
const X = icon("x");

/**
 * Issue 48: the attendant's assistant in the chat. A voice note's transcript under its player
 * ('transcrição'; why there is none on hover), the latest summary at the top of the chat (live
 * on the ticket room's `summary`), and the composer's suggested replies: picking one fills the
 * composer; a person edits and sends it. Shown when the company's plan has useAssist; the
 * company's switches are the server's (a feature turned off answers ERR_ASSIST_DISABLED).
 */
export function useAssistPlan(): boolean {
  return useUser().company.plan?.useAssist === true;
}

export function TranscriptLine({ message }: { message: MessageBase }) {
  const { t } = useTranslation();
  if (message.transcript) {
    return (
      <div className="mb-transcript" data-testid="message-transcript">
        <span className="mb-transcript-label">{t("tickets.assist.transcript")}</span>{" "}
        {message.transcript}
      </div>
    );
  }
  if (message.transcriptError) {
    return (
      <div
        className="mb-transcript"
        data-failed="true"
        title={t("tickets.assist.transcriptFailed", { why: message.transcriptError })}
        data-testid="transcript-failed"
      >
        <span className="mb-transcript-label">{t("tickets.assist.noTranscript")}</span>
      </div>
    );
  }
  return null;
}

export function SummaryBanner({ ticketId }: { ticketId: number }) {
  const { t } = useTranslation();
  const on = useAssistPlan();
  const [summary, setSummary] = useState<TicketSummaryView | null>(null);
  const [hidden, setHidden] = useState(false);
  useEffect(() => {
    setSummary(null);
    setHidden(false);
    if (!on) return;
    let live = true;
    api.get<{ summary: TicketSummaryView | null }>(`/tickets/${ticketId}/summary`, { quiet: true })
      .then((answer) => live && setSummary((now) => now ?? answer.summary))
      .catch(() => {});
    return () => {
      live = false;
    };
  }, [ticketId, on]);
  useRealtime("ticket", (event) => {
    if (event.action === "summary" && event.ticketId === ticketId) {
      setSummary(event.summary);
      setHidden(false);
    }
  });
  if (!summary || hidden) return null;
  return (
    <aside
      className="tv-summary"
      data-testid="ticket-summary"
      aria-label={t("tickets.assist.summary")}
    >
      <Sparkles size={16} aria-hidden="true" />
      <div>
        <strong>{t(`tickets.assist.reason.${summary.reason}`)}</strong>
        <p>{summary.summary}</p>
      </div>
      <IconButton label={t("common.close")} onClick={() => setHidden(true)}>
        <X size={16} aria-hidden="true" />
      </IconButton>
    </aside>
  );
}

/** The ticket menu's 'Resumir conversa': the banner shows it when its event arrives. */
export async function askSummary(ticketId: number) {
  await api.post(`/tickets/${ticketId}/summary`).catch(() => {});
}

export function SuggestReplies(
  { ticketId, onPick }: { ticketId: number; onPick: (text: string) => void },
) {
  const { t } = useTranslation();
  const [items, setItems] = useState<string[] | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => setItems(null), [ticketId]);
  const ask = async () => {
    setBusy(true);
    try {
      const answer = await api.post<{ suggestions: string[] }>(`/tickets/${ticketId}/suggestions`);
      setItems(answer.suggestions);
    } catch {
      // shown by the api client
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      {items
        ? (
          <ul
            className="mi-suggestions"
            data-testid="suggestions"
            aria-label={t("tickets.assist.suggest")}
          >
            {items.length === 0 ? <li>{t("tickets.assist.noSuggestions")}</li> : null}
            {items.map((item, index) => (
              <li key={index}>
                <button
                  type="button"
                  onClick={() => {
                    onPick(item);
                    setItems(null);
                  }}
                >
                  {item}
                </button>
              </li>
            ))}
          </ul>
        )
        : null}
      <IconButton
        label={t("tickets.assist.suggest")}
        onClick={() => void ask()}
        disabled={busy}
        data-testid="suggest"
      >
        <Sparkles size={20} aria-hidden="true" />
      </IconButton>
    </>
  );
}
