import type { Database } from "../../db/client.ts";
import { renderVariables } from "../messages/variables.ts";
import { companyTimeZone, isEnabled, settingValues } from "../settings/values.ts";
import { contactName, userName } from "./repository.ts";

/** Chosen here, in Portuguese as the product's other automatic texts; never translated. */
export const GREETING_ACCEPTED =
  "{{ms}}, *{{name}}*! Meu nome é *{{user}}* e vou prosseguir com o seu atendimento.";

/**
 * The greeting-on-accept (seeds/000 section 4, setting sendGreetingAccepted) of the person who
 * takes a ticket, filled, or null when the company does not send one or the ticket is a group.
 * One rule for both ways a ticket reaches someone: a manual accept (tickets/service.ts) and
 * automatic distribution (distribution/service.ts, issue 50 item 11).
 */
export async function acceptGreeting(
  db: Database,
  companyId: number,
  ticket: { id: number; contactId: number; isGroup: number },
  userId: number,
  now: Date,
): Promise<string | null> {
  if (ticket.isGroup === 1) return null;
  const settings = await settingValues(db, companyId, [
    "sendGreetingAccepted",
    "greetingAcceptedMessage",
  ]);
  if (!isEnabled(settings.sendGreetingAccepted)) return null;
  // Issue 28: the company's own text when it wrote one, with the same variables.
  const text = settings.greetingAcceptedMessage?.trim() || GREETING_ACCEPTED;
  const contact = await contactName(db, companyId, ticket.contactId);
  const user = { name: await userName(db, companyId, userId) ?? "" };
  const timeZone = await companyTimeZone(db, companyId);
  return renderVariables(text, { contact, user, ticketId: ticket.id, now, timeZone });
}
