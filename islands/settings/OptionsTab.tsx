import { useEffect, useId, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { IconButton } from "../lib/ui/Button.tsx";
import { Select } from "../lib/ui/Select.tsx";
import { can } from "../lib/permissions.ts";
import { useUser } from "../lib/session.ts";
import { isTimeZone, TIME_ZONE_SETTING, TIME_ZONES, zoneOf } from "../../contract/time_zone.ts";
import { icon } from "../lib/ui/icon.tsx";

const Eye = icon("eye");
const EyeOff = icon("eye-off");

/** Saves one setting; answers whether it was saved (the caller shows the outcome). */
export type SettingSaver = (key: string, value: string) => Promise<boolean>;

/** The selects and the values each offers (labels under settings.values). */
export const SELECTS: readonly { key: string; values: readonly string[] }[] = [
  { key: "userRating", values: ["disabled", "enabled"] },
  { key: "scheduleType", values: ["disabled", "queue", "company"] },
  { key: "CheckMsgIsGroup", values: ["disabled", "enabled"] },
  { key: "call", values: ["disabled", "enabled"] },
  { key: "chatBotType", values: ["text"] },
  { key: "sendGreetingAccepted", values: ["disabled", "enabled"] },
  { key: "sendMsgTransfTicket", values: ["disabled", "enabled"] },
  // Issue 30: who signs in with a second factor; several sessions per user or one.
  { key: "twoFactorRequired", values: ["disabled", "admins", "everyone"] },
  { key: "multipleSessions", values: ["disabled", "enabled"] },
];

/** Platform options, shown to super users only (the server refuses them to others). */
export const PLATFORM_SELECTS: readonly { key: string; values: readonly string[] }[] = [
  // Issue 30: every super user signs in with a second factor.
  { key: "superTwoFactor", values: ["disabled", "enabled"] },
];

/** Integration fields by provider; secrets are masked until revealed. */
export const INTEGRATIONS: readonly {
  id: string;
  fields: readonly { key: string; secret?: boolean }[];
}[] = [
  { id: "ixc", fields: [{ key: "ipixc" }, { key: "tokenixc", secret: true }] },
  {
    id: "mkauth",
    fields: [
      { key: "ipmkauth" },
      { key: "clientidmkauth" },
      { key: "clientsecretmkauth", secret: true },
    ],
  },
  { id: "asaas", fields: [{ key: "asaas", secret: true }] },
];

/** seeds/001 section 9: the same pause as list searches before a typed value is saved. */
export const TYPING_SAVE_DELAY_MS = 500;

/**
 * The Options tab of /settings (seeds/001 section 2): selects that save on change, and the
 * integrations' text fields that save as they are typed (debounced; flushed on leaving the field).
 */
export function OptionsTab(
  { settings, save }: { settings: Record<string, string>; save: SettingSaver },
) {
  const { t } = useTranslation();
  const platform = can(useUser(), "setting:manage-platform");
  return (
    <div className="settings-sections">
      <section className="card settings-card" aria-labelledby="settings-options-title">
        <h2 id="settings-options-title" className="settings-card-title">
          {t("settings.options.title")}
        </h2>
        <div className="settings-grid">
          {[...SELECTS, ...(platform ? PLATFORM_SELECTS : [])].map(({ key, values }) => (
            <SettingSelect
              key={key}
              settingKey={key}
              value={settings[key]}
              values={values}
              save={save}
            />
          ))}
          {/* The company's clock: dates and times are typed and shown in it (issue 24 item 6). */}
          <SettingSelect
            settingKey={TIME_ZONE_SETTING}
            value={zoneOf([{ key: TIME_ZONE_SETTING, value: settings[TIME_ZONE_SETTING] ?? "" }])}
            values={zoneChoices(settings[TIME_ZONE_SETTING])}
            label={(zone) => zone.replaceAll("_", " ")}
            save={save}
          />
          {platform && (
            // Issue 30: how long the audit log keeps a row (empty: AUDIT_RETENTION_DAYS).
            <IntegrationField
              settingKey="auditRetentionDays"
              value={settings.auditRetentionDays ?? ""}
              save={save}
            />
          )}
          {/* Issue 28: the greeting's own text ({{user}}, {{name}}...); empty: the product's. */}
          <IntegrationField
            settingKey="greetingAcceptedMessage"
            value={settings.greetingAcceptedMessage ?? ""}
            save={save}
          />
        </div>
      </section>
      <section className="card settings-card" aria-labelledby="settings-integrations-title">
        <h2 id="settings-integrations-title" className="settings-card-title">
          {t("settings.integrations.title")}
        </h2>
        {INTEGRATIONS.map((group) => (
          <fieldset key={group.id} className="settings-group">
            <legend>{t(`settings.integrations.${group.id}`)}</legend>
            <div className="settings-grid">
              {group.fields.map((field) => (
                <IntegrationField
                  key={field.key}
                  settingKey={field.key}
                  secret={field.secret}
                  value={settings[field.key] ?? ""}
                  save={save}
                />
              ))}
            </div>
          </fieldset>
        ))}
      </section>
    </div>
  );
}

/** The offered zones, and the stored one when it is another. */
function zoneChoices(stored: string | undefined): readonly string[] {
  return stored && isTimeZone(stored) && !(TIME_ZONES as readonly string[]).includes(stored)
    ? [stored, ...TIME_ZONES]
    : TIME_ZONES;
}

export function SettingSelect(
  { settingKey, value, values, label, save }: {
    settingKey: string;
    value: string | undefined;
    values: readonly string[];
    /** A value's label; default its text under settings.values. */
    label?: (value: string) => string;
    save: SettingSaver;
  },
) {
  const { t } = useTranslation();
  const id = useId();
  return (
    <div className="field" data-setting={settingKey}>
      <label htmlFor={id}>{t(`settings.keys.${settingKey}`)}</label>
      <Select
        id={id}
        value={value}
        onValueChange={(next) => {
          if (next !== value) void save(settingKey, next);
        }}
        options={values.map((v) => ({
          value: v,
          label: label ? label(v) : t(`settings.values.${settingKey}.${v}`),
        }))}
      />
    </div>
  );
}

export function IntegrationField(
  { settingKey, value, secret, save }: {
    settingKey: string;
    value: string;
    secret?: boolean;
    save: SettingSaver;
  },
) {
  const { t } = useTranslation();
  const id = useId();
  const [text, setText] = useState(value);
  const [shown, setShown] = useState(false);
  const pending = useRef<string | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const lastSaved = useRef(value);

  // The stored value changed elsewhere (another admin): take it unless the user is typing.
  useEffect(() => {
    lastSaved.current = value;
    if (pending.current === null) setText(value);
  }, [value]);

  const flush = () => {
    if (timer.current) clearTimeout(timer.current);
    timer.current = null;
    const next = pending.current;
    pending.current = null;
    if (next === null || next.trim() === lastSaved.current) return;
    lastSaved.current = next.trim();
    void save(settingKey, next.trim());
  };

  useEffect(() => () => {
    if (timer.current) clearTimeout(timer.current);
  }, []);

  return (
    <div className="field" data-setting={settingKey}>
      <label htmlFor={id}>{t(`settings.keys.${settingKey}`)}</label>
      <div className="settings-input">
        <input
          id={id}
          className="input"
          name={settingKey}
          type={secret && !shown ? "password" : "text"}
          autoComplete="off"
          spellCheck={false}
          maxLength={500}
          value={text}
          onChange={(e) => {
            setText(e.target.value);
            pending.current = e.target.value;
            if (timer.current) clearTimeout(timer.current);
            timer.current = setTimeout(flush, TYPING_SAVE_DELAY_MS);
          }}
          onBlur={flush}
        />
        {secret
          ? (
            <IconButton
              label={t(shown ? "settings.integrations.hide" : "settings.integrations.show")}
              className="settings-reveal"
              onClick={() => setShown(!shown)}
            >
              {shown
                ? <EyeOff size={16} aria-hidden="true" />
                : <Eye size={16} aria-hidden="true" />}
            </IconButton>
          )
          : null}
      </div>
    </div>
  );
}
