import type { AppDeps, AuthInfo } from "../context.ts";
import type { TicketEventKind, TicketStatus } from "../../db/schema.ts";
import { notFound } from "../errors.ts";
import { companyTimeZone } from "../settings/values.ts";
import * as repo from "./repository.ts";
import { reportScope } from "./scope.ts";
import { ticketSummaries } from "../assist/repository.ts";
import type { TextLanguage } from "../http/language.ts";
import pt from "../../locales/pt.json" with { type: "json" };
import en from "../../locales/en.json" with { type: "json" };
import es from "../../locales/es.json" with { type: "json" };

/**
 * A conversation's transcript as printable HTML (issue 27): the ticket, its timeline and every
 * message in order, streamed page by page (a ticket of thousands of messages is never held whole).
 * The browser prints it to PDF. Messages are text: every value is escaped, nothing is linked or
 * loaded (no scripts, no images). A person reads it (issue 50 item 6): events, status and times in
 * the reader's language and format, WhatsApp's *bold* / _italic_ / ~strike~ drawn, not shown as
 * markers.
 */
const PAGE = 500;

const TEXTS = { pt: pt.reports.transcript, en: en.reports.transcript, es: es.reports.transcript };
const LOCALE_TAGS: Record<TextLanguage, string> = { pt: "pt-BR", en: "en-US", es: "es-ES" };

/** WhatsApp's formatting of an escaped text as HTML (the markers never reach the reader). */
function formatted(escaped: string): string {
  return escaped.replace(/\*([^*\n]+)\*/g, "<strong>$1</strong>")
    .replace(/(^|[\s(])_([^_\n]+)_/g, "$1<em>$2</em>")
    .replace(/~([^~\n]+)~/g, "<s>$1</s>");
}

function escape(value: string): string {
  return value.replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!,
  );
}

/** Date and time on the company's clock, in the reader's format. */
function clockOf(timeZone: string, locale: string): (iso: string) => string {
  const format = new Intl.DateTimeFormat(locale, {
    timeZone,
    dateStyle: "short",
    timeStyle: "medium",
  });
  return (iso) => format.format(new Date(iso));
}

const STYLE = `body{font:14px/1.4 system-ui,sans-serif;margin:2rem;color:#111}
h1{font-size:1.3rem}table{border-collapse:collapse;margin:1rem 0}td,th{padding:.2rem .6rem;
text-align:left;border-bottom:1px solid #ddd}.m{margin:.4rem 0;padding:.4rem .6rem;border-radius:6px;
max-width:70%;white-space:pre-wrap;break-inside:avoid}.in{background:#f1f1f1}.out{background:#dcf8c6;
margin-left:auto}.t{font-size:.75rem;color:#555}@media print{body{margin:0}}`;

export async function ticketTranscript(
  deps: AppDeps,
  auth: AuthInfo,
  ticketId: number,
  language: TextLanguage = "pt",
): Promise<ReadableStream<Uint8Array>> {
  const text = TEXTS[language];
  const scope = await reportScope(deps, auth);
  const companyId = auth.companyId;
  const ticket = await repo.transcriptTicket(deps.db, companyId, ticketId);
  if (!ticket || (scope !== null && !scope.includes(ticket.queueId ?? -1))) {
    throw notFound("ERR_NO_TICKET_FOUND", "Ticket not found");
  }
  const timeline = await repo.ticketTimeline(deps.db, companyId, ticketId);
  // Issue 48: the assistant's summaries are part of the ticket's timeline.
  const summaries = await ticketSummaries(deps.db, companyId, ticketId);
  const when = clockOf(await companyTimeZone(deps.db, companyId), LOCALE_TAGS[language]);
  const encoder = new TextEncoder();
  let after: { createdAt: string; id: number } | null = null;
  let started = false;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!started) {
        started = true;
        const head = `<!doctype html><html lang="${LOCALE_TAGS[language]}"><head>` +
          `<meta charset="utf-8"><title>Ticket ${ticket.id}</title><style>${STYLE}</style>` +
          `</head><body><h1>Ticket ${ticket.id}: ${escape(ticket.contactName)} (${
            escape(ticket.contactNumber)
          })</h1><p>${escape(ticket.queueName ?? text.noQueue)} · ${
            escape(ticket.userName ?? text.unassigned)
          } · ${escape(text.statuses[ticket.status as TicketStatus] ?? ticket.status)}</p>` +
          `<table><thead><tr><th>${text.when}</th><th>${text.event}</th><th>${text.who}</th>` +
          `<th>${text.queue}</th><th>${text.detail}</th></tr></thead><tbody>` +
          timeline.map((e) =>
            `<tr><td>${when(e.at)}</td><td>${
              escape(text.events[e.kind as TicketEventKind] ?? e.kind)
            }</td><td>${escape(e.userName ?? "")}</td><td>${escape(e.queueName ?? "")}</td><td>${
              escape(String(e.value ?? ""))
            }</td></tr>`
          ).join("") +
          summaries.map((s) =>
            `<tr><td>${when(s.createdAt)}</td><td>${escape(text.summary)}</td>` +
            `<td colspan="3" class="s">${escape(s.summary)}</td></tr>`
          ).join("") + `</tbody></table>`;
        controller.enqueue(encoder.encode(head));
        return;
      }
      const page = await repo.transcriptMessages(deps.db, companyId, ticketId, after, PAGE);
      controller.enqueue(encoder.encode(
        page.map((m) => {
          const shown = m.isDeleted
            ? `<em>${escape(text.deleted)}</em>`
            : formatted(escape(m.body || (m.mediaName ?? m.mediaType ?? "")));
          // Issue 48: a voice note's transcription, under it.
          const said = !m.isDeleted && m.transcript
            ? `<div class="tr"><span class="t">${escape(text.transcription)}</span> ${
              escape(m.transcript)
            }</div>`
            : "";
          return `<div class="m ${m.fromMe ? "out" : "in"}"><div class="t">${
            when(m.createdAt)
          }</div>${shown}${said}</div>`;
        }).join(""),
      ));
      if (page.length < PAGE) {
        controller.enqueue(encoder.encode("</body></html>"));
        controller.close();
        return;
      }
      const last = page[page.length - 1];
      after = { createdAt: last.createdAt, id: last.id };
    },
  });
}
