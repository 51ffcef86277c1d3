import type { AppDeps, AuthInfo } from "../context.ts";
import { notFound } from "../errors.ts";
import { companyTimeZone } from "../settings/values.ts";
import * as repo from "./repository.ts";
import { reportScope } from "./scope.ts";
import { ticketSummaries } from "../assist/repository.ts";

/**
 * A conversation's transcript as printable HTML (issue 27): the ticket, its timeline and every
 * message in order, streamed page by page (a ticket of thousands of messages is never held whole).
 * The browser prints it to PDF. Messages are text: every value is escaped, nothing is linked or
 * loaded (no scripts, no images).
 */
const PAGE = 500;

function escape(value: string): string {
  return value.replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!,
  );
}

/** Date and time on the company's clock. */
function clockOf(timeZone: string): (iso: string) => string {
  const format = new Intl.DateTimeFormat("pt-BR", {
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
): Promise<ReadableStream<Uint8Array>> {
  const scope = await reportScope(deps, auth);
  const companyId = auth.companyId;
  const ticket = await repo.transcriptTicket(deps.db, companyId, ticketId);
  if (!ticket || (scope !== null && !scope.includes(ticket.queueId ?? -1))) {
    throw notFound("ERR_NO_TICKET_FOUND", "Ticket not found");
  }
  const timeline = await repo.ticketTimeline(deps.db, companyId, ticketId);
  // Issue 48: the assistant's summaries are part of the ticket's timeline.
  const summaries = await ticketSummaries(deps.db, companyId, ticketId);
  const when = clockOf(await companyTimeZone(deps.db, companyId));
  const encoder = new TextEncoder();
  let after: { createdAt: string; id: number } | null = null;
  let started = false;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!started) {
        started = true;
        const head = `<!doctype html><html lang="pt-BR"><head><meta charset="utf-8">` +
          `<title>Ticket ${ticket.id}</title><style>${STYLE}</style></head><body>` +
          `<h1>Ticket ${ticket.id}: ${escape(ticket.contactName)} (${
            escape(ticket.contactNumber)
          })</h1><p>${escape(ticket.queueName ?? "")} ${escape(ticket.userName ?? "")} · ${
            escape(ticket.status)
          }</p><table><tbody>` +
          timeline.map((e) =>
            `<tr><td>${when(e.at)}</td><td>${escape(e.kind)}</td><td>${
              escape(e.userName ?? "")
            }</td><td>${escape(e.queueName ?? "")}</td><td>${e.value ?? ""}</td></tr>`
          ).join("") +
          summaries.map((s) =>
            `<tr><td>${when(s.createdAt)}</td><td>summary (${escape(s.reason)})</td>` +
            `<td colspan="3" class="s">${escape(s.summary)}</td></tr>`
          ).join("") + `</tbody></table>`;
        controller.enqueue(encoder.encode(head));
        return;
      }
      const page = await repo.transcriptMessages(deps.db, companyId, ticketId, after, PAGE);
      controller.enqueue(encoder.encode(
        page.map((m) => {
          const text = m.isDeleted ? "—" : m.body || (m.mediaName ?? m.mediaType ?? "");
          // Issue 48: a voice note's transcription, under it.
          const said = !m.isDeleted && m.transcript
            ? `<div class="tr"><span class="t">transcrição</span> ${escape(m.transcript)}</div>`
            : "";
          return `<div class="m ${m.fromMe ? "out" : "in"}"><div class="t">${
            when(m.createdAt)
          }</div>${escape(text)}${said}</div>`;
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
