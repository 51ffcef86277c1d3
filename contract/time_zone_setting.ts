/**
 * The setting that holds a company's zone (an IANA name). Apart from time_zone.ts so that the
 * shell, which only watches this setting, does not carry the zone arithmetic into every page
 * (issue 33: a shared module's unused functions still ship with code splitting).
 */
export const TIME_ZONE_SETTING = "timeZone";
