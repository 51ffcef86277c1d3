/**
 * Message variables usable in greeting, menu and other automatic texts (seeds/000 section 3):
 * {{firstName}}, {{name}}, {{ms}} (greeting by time of day), {{protocol}}, {{date}}, {{hour}}.
 * Times are wall-clock in the product's market time zone.
 */
export type TemplateContext = { contactName: string; ticketId?: number; now: Date };

const TIME_ZONE = "America/Sao_Paulo";

function parts(now: Date) {
  const fmt = new Intl.DateTimeFormat("en-GB", {
    timeZone: TIME_ZONE,
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
    hourCycle: "h23",
  }).formatToParts(now);
  const get = (type: string) => fmt.find((p) => p.type === type)?.value ?? "00";
  return {
    year: get("year"),
    month: get("month"),
    day: get("day"),
    hour: get("hour"),
    minute: get("minute"),
    second: get("second"),
  };
}

/** 'Bom dia' from 05:00, 'Boa tarde' from 12:00, 'Boa noite' from 18:00, else 'Boa madrugada'. */
export function greetingByHour(now: Date): string {
  const hour = Number(parts(now).hour);
  if (hour >= 5 && hour < 12) return "Bom dia";
  if (hour >= 12 && hour < 18) return "Boa tarde";
  if (hour >= 18) return "Boa noite";
  return "Boa madrugada";
}

export function renderTemplate(text: string, ctx: TemplateContext): string {
  if (!text.includes("{{")) return text;
  const p = parts(ctx.now);
  const name = ctx.contactName.trim();
  const values: Record<string, string> = {
    firstName: name.split(/\s+/)[0] ?? "",
    name,
    ms: greetingByHour(ctx.now),
    protocol: `${p.year}${p.month}${p.day}${p.hour}${p.minute}${p.second}${ctx.ticketId ?? ""}`,
    date: `${p.day}/${p.month}/${p.year}`,
    hour: `${p.hour}:${p.minute}:${p.second}`,
  };
  return text.replace(/\{\{\s*(\w+)\s*\}\}/g, (all, key: string) => values[key] ?? all);
}

/** HH:mm in the market time zone, for call logs. */
export function hourMinute(now: Date): string {
  const p = parts(now);
  return `${p.hour}:${p.minute}`;
}
