/**
 * Text bodies of the message types that carry no plain text (seeds/000 section 3), one format
 * for every provider so the ticket view renders them alike:
 * - locationMessage: a maps link, then the place's name/address on the next line when known;
 * - vcard: the vCard text itself (BEGIN:VCARD ... END:VCARD);
 * - call_log: a sentence saying which call, when, and what happened.
 */
import { hourMinute } from "../../../contract/time_zone.ts";

export function locationBody(latitude: number, longitude: number, description?: string): string {
  const link = `https://maps.google.com/maps?q=${latitude}%2C${longitude}&z=17`;
  return description ? `${link}\n${description}` : link;
}

function vcardEscape(text: string): string {
  return text.replace(/[\\,;]/g, (c) => `\\${c}`).replace(/\n/g, "\\n");
}

export function vcardBody(name: string, number: string): string {
  const digits = number.replace(/\D/g, "");
  return [
    "BEGIN:VCARD",
    "VERSION:3.0",
    `FN:${vcardEscape(name)}`,
    `TEL;type=CELL;waid=${digits}:+${digits}`,
    "END:VCARD",
  ].join("\n");
}

export function callLogBody(
  isVideo: boolean,
  at: Date,
  rejected: boolean,
  timeZone: string,
): string {
  const kind = isVideo ? "vídeo" : "voz";
  return rejected
    ? `Chamada de ${kind} recusada às ${hourMinute(at, timeZone)}`
    : `Chamada de ${kind} recebida às ${hourMinute(at, timeZone)}`;
}

/** Sent back when calls are off (setting `call` disabled). */
export const CALLS_DISABLED_TEXT =
  "*Mensagem Automática:*\n\nAs chamadas de voz e vídeo estão desabilitadas para este WhatsApp, favor enviar uma mensagem de texto. Obrigado!";

/** Body kept when inbound media could not be stored (too large, failed download). */
export function mediaPlaceholder(reason: "too_large" | "download_failed", maxBytes: number) {
  if (reason === "too_large") {
    return `[Mídia não recebida: arquivo maior que o limite de ${
      Math.floor(maxBytes / (1024 * 1024))
    } MB]`;
  }
  return "[Mídia não recebida: falha ao baixar o arquivo]";
}
