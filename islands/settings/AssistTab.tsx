import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import type { AssistUsageView } from "../../contract/assist_types.ts";
import { api } from "../lib/api.ts";
import { useRealtime } from "../lib/socket.ts";
import { IntegrationField, type SettingSaver, SettingSelect } from "./OptionsTab.tsx";

const TOGGLES = ["assistTranscription", "assistSummary", "assistSuggestions"] as const;
const FIELDS = [
  { key: "assistBaseUrl" },
  { key: "assistApiKey", secret: true },
  { key: "assistModel" },
  { key: "assistTranscriptionModel" },
  { key: "assistMonthlyCap" },
] as const;

const dollars = (value: number) =>
  value.toLocaleString(undefined, { style: "currency", currency: "USD", maximumFractionDigits: 4 });

/**
 * Issue 48: the attendant's assistant on /settings (admins, plan useAssist): its features, the
 * company's own OpenAI-compatible account (empty: the platform's), the monthly cap, and this
 * month's meter per feature; what admins were told (the cap, a refused key) on top.
 */
export function AssistTab(
  { settings, save }: { settings: Record<string, string>; save: SettingSaver },
) {
  const { t } = useTranslation();
  const [usage, setUsage] = useState<AssistUsageView | null>(null);
  const load = () =>
    void api.get<AssistUsageView>("/assist/usage", { quiet: true }).then(setUsage).catch(() => {});
  useEffect(load, []);
  useRealtime("settings", (event) => {
    if (event.setting.key.startsWith("assist")) load();
  });
  return (
    <div className="settings-sections" data-testid="assist-settings">
      {usage?.notice
        ? (
          <p className="card settings-card" role="alert" data-testid="assist-notice">
            {t(`settings.assist.notice.${usage.notice}`)}
          </p>
        )
        : null}
      <section className="card settings-card" aria-labelledby="settings-assist-title">
        <h2 id="settings-assist-title" className="settings-card-title">
          {t("settings.assist.title")}
        </h2>
        <p>{t("settings.assist.privacy")}</p>
        <div className="settings-grid">
          {TOGGLES.map((key) => (
            <SettingSelect
              key={key}
              settingKey={key}
              value={settings[key]}
              values={["disabled", "enabled"]}
              label={(v) => t(`settings.assist.values.${v}`)}
              save={save}
            />
          ))}
          {FIELDS.map((field) => (
            <IntegrationField
              key={field.key}
              settingKey={field.key}
              secret={"secret" in field}
              value={settings[field.key] ?? ""}
              save={save}
            />
          ))}
        </div>
      </section>
      <section className="card settings-card" aria-labelledby="settings-assist-meter">
        <h2 id="settings-assist-meter" className="settings-card-title">
          {t("settings.assist.meter", { month: usage?.month ?? "" })}
        </h2>
        {usage
          ? (
            <table className="table" data-testid="assist-meter">
              <thead>
                <tr>
                  <th scope="col">{t("settings.assist.feature")}</th>
                  <th scope="col">{t("settings.assist.calls")}</th>
                  <th scope="col">{t("settings.assist.tokens")}</th>
                  <th scope="col">{t("settings.assist.seconds")}</th>
                  <th scope="col">{t("settings.assist.cost")}</th>
                </tr>
              </thead>
              <tbody>
                {usage.features.map((f) => (
                  <tr key={f.feature}>
                    <th scope="row">{t(`settings.assist.features.${f.feature}`)}</th>
                    <td>{f.calls}</td>
                    <td>{f.tokens}</td>
                    <td>{f.seconds}</td>
                    <td>{dollars(f.cost)}</td>
                  </tr>
                ))}
              </tbody>
              <tfoot>
                <tr>
                  <th scope="row">{t("settings.assist.total")}</th>
                  <td colSpan={3}>
                    {usage.cap > 0
                      ? t("settings.assist.capOf", { cap: dollars(usage.cap) })
                      : t("settings.assist.noCap")}
                  </td>
                  <td>{dollars(usage.cost)}</td>
                </tr>
              </tfoot>
            </table>
          )
          : null}
      </section>
    </div>
  );
}
