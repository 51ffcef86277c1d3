import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { AppShell } from "./lib/shell/AppShell.tsx";
import { CAMPAIGN_GUARD } from "./lib/campaign_guard.ts";
import { api } from "./lib/api.ts";
import {
  addVariable,
  type CampaignSettings,
  type CampaignVariable,
  DEFAULT_CAMPAIGN_SETTINGS,
  LONGER_INTERVALS,
  MESSAGE_INTERVALS,
} from "../contract/campaign_rules.ts";
import { toast } from "./lib/toast.ts";
import { Button, IconButton } from "./lib/ui/Button.tsx";
import { Field } from "./lib/ui/Field.tsx";
import { Select } from "./lib/ui/Select.tsx";
import { icon } from "./lib/ui/icon.tsx";

const Trash2 = icon("trash-2");

export type CampaignsConfigPageProps = Record<string, never>;

/** /campaigns-config (seeds/002 section 2.3): three intervals and the shortcut variables. */
export default function CampaignsConfigPage(_props: CampaignsConfigPageProps) {
  const { t } = useTranslation();
  return (
    <AppShell
      guard={CAMPAIGN_GUARD}
      title={t("campaigns.configTitle")}
    >
      <Config />
    </AppShell>
  );
}

type SettingRow = { key: string; value: unknown };

/** GET /campaign-settings' rows as settings (defaults for what was never saved). */
function settingsOf(rows: SettingRow[]): CampaignSettings {
  return {
    ...DEFAULT_CAMPAIGN_SETTINGS,
    ...Object.fromEntries(rows.map((r) => [r.key, r.value])),
  } as CampaignSettings;
}

/** What 'Salvar' saves (intervals and opt-out words), to tell unsaved changes. */
function intervalsOf(s: CampaignSettings, words: string) {
  return JSON.stringify([s.messageInterval, s.longerIntervalAfter, s.greaterInterval, words]);
}

function Config() {
  const { t } = useTranslation();
  const [settings, setSettings] = useState<CampaignSettings>(DEFAULT_CAMPAIGN_SETTINGS);
  const [key, setKey] = useState("");
  const [value, setValue] = useState("");
  const [words, setWords] = useState(DEFAULT_CAMPAIGN_SETTINGS.optOutWords.join(", "));
  const [saved, setSaved] = useState(intervalsOf(DEFAULT_CAMPAIGN_SETTINGS, words));
  const [saving, setSaving] = useState(false);
  useEffect(() => {
    api.get<SettingRow[]>("/campaign-settings").then((rows) => {
      const loaded = settingsOf(rows);
      setSettings(loaded);
      setWords(loaded.optOutWords.join(", "));
      setSaved(intervalsOf(loaded, loaded.optOutWords.join(", ")));
    }).catch(() => {});
  }, []);
  // Intervals and words wait for 'Salvar' (seeds/002 section 2.3): leaving with changes warns.
  const dirty = intervalsOf(settings, words) !== saved;
  useEffect(() => {
    if (!dirty) return;
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    addEventListener("beforeunload", warn);
    return () => removeEventListener("beforeunload", warn);
  }, [dirty]);
  const seconds = (n: number, zero: string) => ({
    value: String(n),
    label: n === 0 ? t(zero) : t("campaigns.seconds", { count: n }),
  });
  const interval = (
    field: "messageInterval" | "longerIntervalAfter" | "greaterInterval",
    options: { value: string; label: string }[],
  ) => (
    <div className="field">
      <label>{t(`campaigns.${field}`)}</label>
      <Select
        label={t(`campaigns.${field}`)}
        value={String(settings[field])}
        onValueChange={(v) => setSettings({ ...settings, [field]: Number(v) })}
        options={options}
      />
    </div>
  );
  const save = async () => {
    setSaving(true);
    try {
      const optOutWords = words.split(",").map((w) => w.trim()).filter(Boolean);
      await api.post("/campaign-settings", { settings: { ...settings, optOutWords } });
      setSaved(intervalsOf(settings, words));
      toast.success({ key: "campaigns.settingsSaved" });
    } catch {
      // the api client showed the error
    } finally {
      setSaving(false);
    }
  };
  const variables: CampaignVariable[] = settings.variables;
  // A variable is saved as it is added or removed (issue 24): a campaign may use it at once. Only
  // the variables are sent changed; unsaved intervals stay as the server has them.
  const saveVariables = async (list: CampaignVariable[], done: string, name: string) => {
    try {
      const current = settingsOf(await api.get<SettingRow[]>("/campaign-settings"));
      await api.post("/campaign-settings", { settings: { ...current, variables: list } });
      setSettings((s) => ({ ...s, variables: list }));
      toast.success({ key: done, values: { key: `{${name}}` } });
      return true;
    } catch {
      return false; // the api client showed the error
    }
  };
  const add = async () => {
    const name = key.trim();
    if (!name) return;
    if (variables.some((v) => v.key === name)) {
      toast.error(t("campaigns.variableExists", { key: `{${name}}` }));
      return;
    }
    if (
      await saveVariables(addVariable(variables, { key, value }), "campaigns.variableSaved", name)
    ) {
      setKey("");
      setValue("");
    }
  };
  return (
    <div className="card" style={{ padding: 16, display: "grid", gap: 12 }}>
      {interval(
        "messageInterval",
        MESSAGE_INTERVALS.map((n) => seconds(n, "campaigns.noInterval")),
      )}
      {interval(
        "longerIntervalAfter",
        LONGER_INTERVALS.map((n) => ({
          value: String(n),
          label: n === 0 ? t("campaigns.notDefined") : t("campaigns.messages", { count: n }),
        })),
      )}
      {interval("greaterInterval", LONGER_INTERVALS.map((n) => seconds(n, "campaigns.noInterval")))}
      <Field
        label={t("campaigns.optOutWords")}
        value={words}
        onChange={(e) => setWords(e.target.value)}
      />
      <div style={{ display: "flex", gap: 12, alignItems: "center", flexWrap: "wrap" }}>
        <Button
          variant="primary"
          loading={saving}
          onClick={save}
          data-testid="campaign-settings-save"
        >
          {t("common.save")}
        </Button>
        {dirty ? <span role="status" className="field-hint">{t("campaigns.unsaved")}</span> : null}
      </div>
      <h3>{t("campaigns.variables")}</h3>
      <ul data-testid="campaign-variables">
        {variables.map((v) => (
          <li key={v.key}>
            <code>{`{${v.key}}`}</code> {v.value}
            <IconButton
              label={t("common.delete")}
              onClick={() =>
                void saveVariables(
                  variables.filter((x) => x.key !== v.key),
                  "campaigns.variableRemoved",
                  v.key,
                )}
            >
              <Trash2 size={16} aria-hidden="true" />
            </IconButton>
          </li>
        ))}
      </ul>
      <form
        style={{ display: "flex", gap: 8, alignItems: "end", flexWrap: "wrap" }}
        onSubmit={(e) => {
          e.preventDefault();
          void add();
        }}
      >
        <Field
          label={t("campaigns.variableKey")}
          value={key}
          onChange={(e) => setKey(e.target.value)}
        />
        <Field
          label={t("campaigns.variableValue")}
          value={value}
          onChange={(e) => setValue(e.target.value)}
        />
        <Button type="submit" variant="ghost">
          {t("campaigns.addVariable")}
        </Button>
      </form>
    </div>
  );
}
