import { DEFAULT_TIME_ZONE, wallClock } from "../../contract/time_zone.ts";

/**
 * Message variables (seeds/000 section 3 and seeds/001 section 3) resolved in every automatic
 * text: greetings, completion and rating messages, transfer notices, schedules, campaigns.
 *
 * - {{firstName}}  the contact's first name
 * - {{name}}       the contact's name
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
  ticketId?: number | null;
  now: Date;
  timeZone?: string;
};

const pad = (n: number) => String(n).padStart(2, "0");

export function greetingOf(hour: number): string {
  if (hour < 6) return "Boa madrugada";
  if (hour < 12) return "Bom dia";
  if (hour < 18) return "Boa tarde";
  return "Boa noite";
}

export function messageVariables(ctx: VariableContext): Record<string, string> {
  const t = wallClock(ctx.now, ctx.timeZone ?? DEFAULT_TIME_ZONE);
  const name = ctx.contact?.name?.trim() ?? "";
  const stamp = `${t.year}${pad(t.month)}${pad(t.day)}${pad(t.hour)}${pad(t.minute)}${
    pad(t.second)
  }`;
  return {
    firstName: name.split(/\s+/)[0] ?? "",
    name,
    ms: greetingOf(t.hour),
    protocol: `${stamp}${ctx.ticketId ?? ""}`,
    date: `${pad(t.day)}/${pad(t.month)}/${t.year}`,
    hour: `${pad(t.hour)}:${pad(t.minute)}:${pad(t.second)}`,
  };
}

/** Replaces the variables in `text`. */
export function renderVariables(text: string, ctx: VariableContext): string {
  const values = messageVariables(ctx);
  return text.replace(
    /\{\{\s*(\w+)\s*\}\}/g,
    (whole, key: string) => Object.hasOwn(values, key) ? values[key] : whole,
  );
}
