import type { AppDeps } from "../context.ts";
import { AppError, badRequest } from "../errors.ts";
import { capabilitiesOf } from "../../contract/channels.ts";
import { approvedTemplate, approvedTemplates } from "../whatsapp/providers/cloud_api/templates.ts";
import type { ConversationWindow } from "../../contract/channels.ts";
import { assertCanRead, type Viewer } from "../tickets/access.ts";
import { findTicket } from "../tickets/repository.ts";
import { notFound } from "../errors.ts";
import type { OutgoingTemplate } from "../whatsapp/outbox/outbox.ts";
import { channelOf, lastContactMessageAt } from "./window_repository.ts";
import { filledTemplateText } from "./template_rule.ts";

/** WhatsApp's customer-service window: free text within 24 hours of the contact's last message. */
export const WINDOW_MS = 24 * 60 * 60 * 1000;

type TicketRef = { whatsappId: number; contactId: number };

/**
 * Refuses a free-form message outside the window on a channel that has one (capability
 * `window24h`), before anything is written: 422 ERR_WHATSAPP_WINDOW_CLOSED. The window counts
 * from the timestamp the network gave the contact's last message.
 */
export async function assertWindowOpen(deps: AppDeps, companyId: number, ticket: TicketRef) {
  if (!(await windowState(deps, companyId, ticket)).open) throw windowClosed();
}

export function windowClosed(): AppError {
  return new AppError(
    422,
    "ERR_WHATSAPP_WINDOW_CLOSED",
    "Passaram-se mais de 24 horas desde a última mensagem do contato: envie um modelo aprovado.",
  );
}

/** Whether free text may go now on the ticket's connection, and until when. */
async function windowState(deps: AppDeps, companyId: number, ticket: TicketRef) {
  const kind = await channelOf(deps.db, companyId, ticket.whatsappId);
  if (!kind || !capabilitiesOf(kind).window24h) {
    return { kind, window24h: false, open: true, closesAt: null };
  }
  const last = await lastContactMessageAt(deps.db, companyId, ticket.whatsappId, ticket.contactId);
  const closes = last === undefined ? undefined : Date.parse(last) + WINDOW_MS;
  return {
    kind,
    window24h: true,
    open: closes !== undefined && deps.clock.now().getTime() < closes,
    closesAt: closes === undefined ? null : new Date(closes).toISOString(),
  };
}

/**
 * GET /api/messages/:ticketId/window: what the composer needs to say why free text is refused and
 * offer the approved templates instead. Read like the ticket's messages (the audience rule).
 */
export async function ticketWindow(
  deps: AppDeps,
  viewer: Viewer,
  ticketId: number,
): Promise<ConversationWindow> {
  const ticket = await findTicket(deps.db, viewer.companyId, ticketId);
  if (!ticket) throw notFound("ERR_NO_TICKET_FOUND", "Ticket not found");
  assertCanRead(viewer, ticket);
  if (ticket.whatsappId === null) {
    return { window24h: false, open: true, closesAt: null, templates: [] };
  }
  const ref = { whatsappId: ticket.whatsappId, contactId: ticket.contactId };
  const { kind, ...state } = await windowState(deps, viewer.companyId, ref);
  const templates = kind && capabilitiesOf(kind).templates
    ? await approvedTemplates(deps, viewer.companyId, ticket.whatsappId)
    : [];
  return { ...state, templates };
}

/**
 * A template send checked against the synced list: the channel sends templates, the template is
 * approved, the parameters are as many as its body's variables. Answers the text the contact
 * will read (our copy of the message).
 */
export async function checkedTemplate(
  deps: AppDeps,
  companyId: number,
  ticket: TicketRef,
  template: OutgoingTemplate,
): Promise<string> {
  const kind = await channelOf(deps.db, companyId, ticket.whatsappId);
  if (!kind || !capabilitiesOf(kind).templates) {
    throw badRequest("ERR_WHATSAPP_NO_TEMPLATES", "Esta conexão não envia modelos");
  }
  const found = await approvedTemplate(
    deps,
    companyId,
    ticket.whatsappId,
    template.name,
    template.language,
  );
  if (found.parameters !== template.parameters.length) {
    throw badRequest(
      "ERR_WHATSAPP_TEMPLATE_PARAMS",
      "O número de variáveis não corresponde ao modelo",
      { template: ["Invalid"] },
    );
  }
  return filledTemplateText(found.body, template.parameters, template.name);
}
