import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import Trash2 from "lucide-react/icons/trash-2";
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

function Config() {
  const { t } = useTranslation();
  const [settings, setSettings] = useState<CampaignSettings>(DEFAULT_CAMPAIGN_SETTINGS);
  const [key, setKey] = useState("");
  const [value, setValue] = useState("");
  const [words, setWords] = useState(DEFAULT_CAMPAIGN_SETTINGS.optOutWords.join(", "));
  const [saving, setSaving] = useState(false);
  useEffect(() => {
    api.get<{ key: string; value: unknown }[]>("/campaign-settings").then((rows) => {
      const loaded = {
        ...DEFAULT_CAMPAIGN_SETTINGS,
        ...Object.fromEntries(rows.map((r) => [r.key, r.value])),
      } as CampaignSettings;
      setSettings(loaded);
      setWords(loaded.optOutWords.join(", "));
    }).catch(() => {});
  }, []);
  const seconds = (n: number, zero: string) => ({
    value: String(n),
    label: n === 0 ? t(zero) : t("campaigns.seconds", { n }),
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
      toast.success({ key: "campaigns.settingsSaved" });
    } catch {
      // the api client showed the error
    } finally {
      setSaving(false);
    }
  };
  const variables: CampaignVariable[] = settings.variables;
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
          label: n === 0 ? t("campaigns.notDefined") : t("campaigns.messages", { n }),
        })),
      )}
      {interval("greaterInterval", LONGER_INTERVALS.map((n) => seconds(n, "campaigns.noInterval")))}
      <h3>{t("campaigns.variables")}</h3>
      <ul data-testid="campaign-variables">
        {variables.map((v) => (
          <li key={v.key}>
            <code>{`{${v.key}}`}</code> {v.value}
            <IconButton
              label={t("common.delete")}
              onClick={() =>
                setSettings({ ...settings, variables: variables.filter((x) => x.key !== v.key) })}
            >
              <Trash2 size={16} aria-hidden="true" />
            </IconButton>
          </li>
        ))}
      </ul>
      <div style={{ display: "flex", gap: 8, alignItems: "end" }}>
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
        <Button
          variant="ghost"
          onClick={() => {
            setSettings({ ...settings, variables: addVariable(variables, { key, value }) });
            setKey("");
            setValue("");
          }}
        >
          {t("campaigns.addVariable")}
        </Button>
      </div>
      <Field
        label={t("campaigns.optOutWords")}
        value={words}
        onChange={(e) => setWords(e.target.value)}
      />
      <div>
        <Button
          variant="primary"
          loading={saving}
          onClick={save}
          data-testid="campaign-settings-save"
        >
          {t("common.save")}
        </Button>
      </div>
    </div>
  );
}
