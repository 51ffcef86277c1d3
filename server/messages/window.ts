import type { AppDeps } from "../context.ts";
import { AppError, badRequest } from "../errors.ts";
import { capabilitiesOf } from "../../contract/channels.ts";
import { approvedTemplate } from "../whatsapp/providers/cloud_api/service.ts";
import type { OutgoingTemplate } from "../whatsapp/outbox/outbox.ts";
import { channelOf, lastContactMessageAt } from "./window_repository.ts";

/** WhatsApp's customer-service window: free text within 24 hours of the contact's last message. */
export const WINDOW_MS = 24 * 60 * 60 * 1000;

type TicketRef = { whatsappId: number; contactId: number };

/**
 * Refuses a free-form message outside the window on a channel that has one (capability
 * `window24h`), before anything is written: 422 ERR_WHATSAPP_WINDOW_CLOSED. The window counts
 * from the timestamp the network gave the contact's last message.
 */
export async function assertWindowOpen(deps: AppDeps, companyId: number, ticket: TicketRef) {
  const kind = await channelOf(deps.db, companyId, ticket.whatsappId);
  if (!kind || !capabilitiesOf(kind).window24h) return;
  const last = await lastContactMessageAt(deps.db, companyId, ticket.whatsappId, ticket.contactId);
  const open = last !== undefined && deps.clock.now().getTime() - Date.parse(last) < WINDOW_MS;
  if (!open) {
    throw new AppError(
      422,
      "ERR_WHATSAPP_WINDOW_CLOSED",
      "Passaram-se mais de 24 horas desde a última mensagem do contato: envie um modelo aprovado.",
    );
  }
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
  const text = found.body.replace(
    /\{\{\s*(\d+)\s*\}\}/g,
    (_, n) => template.parameters[Number(n) - 1] ?? "",
  );
  return text.trim() || template.name;
}
