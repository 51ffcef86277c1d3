import { useTranslation } from "react-i18next";
import { useSessionUser } from "./session.ts";
import { languageOf, LOCALE_TAGS } from "./i18n.ts";
import {
  DEFAULT_TIME_ZONE,
  instantOfInput,
  zonedInputValue,
  zoneOf,
} from "../../contract/time_zone.ts";
import type { SessionUser } from "../../contract/types.ts";

/**
 * The company's clock in the browser (issue 24 item 6): times are typed and shown in the
 * company's zone (its `timeZone` setting, contract/time_zone.ts), whatever zone the browser is in,
 * and written in the user's language format ("26/11/2026 23:42" in Portuguese).
 *
 *   const clock = useCompanyClock();
 *   <td>{clock.show(campaign.scheduledAt)}</td>
 *   <input type="datetime-local" value={clock.input(iso)} />  ...  clock.instant(value)
 */
export type CompanyClock = {
  zone: string;
  /** An instant as date and time in the language's format; "—" for none. */
  show: (iso: string | null | undefined) => string;
  /** An instant as the value of a datetime-local input, on the company's clock. */
  input: (at: Date | string) => string;
  /** The instant (ISO) a datetime-local value names on the company's clock; null if none. */
  instant: (value: string) => string | null;
};

export function companyZone(user: Pick<SessionUser, "company"> | null): string {
  return user ? zoneOf(user.company.settings) : DEFAULT_TIME_ZONE;
}

const formats = new Map<string, Intl.DateTimeFormat>();

/** Date and time of an instant in a language (pt, en, es) on a zone's clock. */
export function formatDateTime(iso: string, lng: string, zone: string): string {
  const key = `${lng}|${zone}`;
  let format = formats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(lng, {
      dateStyle: "short",
      timeStyle: "short",
      timeZone: zone,
    });
    formats.set(key, format);
  }
  return format.format(new Date(iso));
}

const dayFormats = new Map<string, Intl.DateTimeFormat>();

/**
 * A calendar day ("2026-11-09", as reports and filters carry it) in a language's format: "09/11/2026"
 * in Portuguese; with `short`, the day and month only ("09/11"). A day has no zone: read as UTC.
 */
export function formatDay(day: string, lng: string, short = false): string {
  const key = `${lng}|${short}`;
  let format = dayFormats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(
      lng,
      short
        ? { day: "2-digit", month: "2-digit", timeZone: "UTC" }
        : { dateStyle: "short", timeZone: "UTC" },
    );
    dayFormats.set(key, format);
  }
  return format.format(new Date(`${day}T00:00:00Z`));
}

export function useCompanyClock(): CompanyClock {
  const user = useSessionUser();
  const { i18n } = useTranslation();
  const zone = companyZone(user);
  const lng = LOCALE_TAGS[languageOf(i18n)];
  return {
    zone,
    show: (iso) => (iso ? formatDateTime(iso, lng, zone) : "—"),
    input: (at) => zonedInputValue(at, zone),
    instant: (value) => instantOfInput(value, zone),
  };
}
