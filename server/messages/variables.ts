import { fillVariables, type VariableValues } from "../../contract/message_variables.ts";
import { wallClock } from "../../contract/time_zone.ts";

/**
 * The values of the message variables (the list: contract/message_variables.ts) for one text:
 * greetings, quick answers and other attendant texts, completion and rating messages, transfer
 * notices, out-of-hours and bot replies, schedules, campaigns.
 *
 * - {{firstName}}  the contact's first name
 * - {{name}}       the contact's name
 * - {{user}}       the attendant's name (who sends, accepts or owns the ticket)
 * - {{ms}}         a greeting by the local hour: Bom dia (06-11), Boa tarde (12-17),
 *                  Boa noite (18-23), Boa madrugada (00-05)
 * - {{protocol}}   yyyyMMddHHmmss followed by the ticket id (unique per ticket and second)
 * - {{date}}       dd/MM/yyyy
 * - {{hour}}       HH:mm:ss
 *
 * Unknown {{names}} are left as written; spaces inside the braces are allowed.
 */
export type VariableContext = {
  contact?: { name: string } | null;
  user?: { name: string } | null;
  ticketId?: number | null;
  now: Date;
  /** The company's zone ({{ms}}, {{date}}, {{hour}}, {{protocol}} are on its clock). */
  timeZone: string;
};

const pad = (n: number) => String(n).padStart(2, "0");

export function greetingOf(hour: number): string {
  if (hour < 6) return "Boa madrugada";
  if (hour < 12) return "Bom dia";
  if (hour < 18) return "Boa tarde";
  return "Boa noite";
}

export function messageVariables(ctx: VariableContext): Required<VariableValues> {
  const t = wallClock(ctx.now, ctx.timeZone);
  const name = ctx.contact?.name?.trim() ?? "";
  const stamp = `${t.year}${pad(t.month)}${pad(t.day)}${pad(t.hour)}${pad(t.minute)}${
    pad(t.second)
  }`;
  return {
    firstName: name.split(/\s+/)[0] ?? "",
    name,
    user: ctx.user?.name?.trim() ?? "",
    ms: greetingOf(t.hour),
    protocol: `${stamp}${ctx.ticketId ?? ""}`,
    date: `${pad(t.day)}/${pad(t.month)}/${t.year}`,
    hour: `${pad(t.hour)}:${pad(t.minute)}:${pad(t.second)}`,
  };
}

/** Replaces the variables in `text` (the one fill function: contract/message_variables.ts). */
export function renderVariables(text: string, ctx: VariableContext): string {
  if (!text.includes("{{")) return text;
  return fillVariables(text, messageVariables(ctx));
}
