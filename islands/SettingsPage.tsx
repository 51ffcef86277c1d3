import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { api } from "./lib/api.ts";
import { sessionUser, setSessionUser, useUser } from "./lib/session.ts";
import { can } from "./lib/permissions.ts";
import { OptionsTab } from "./settings/OptionsTab.tsx";
import { AppShell } from "./lib/shell/AppShell.tsx";
import { useRealtime } from "./lib/socket.ts";
import { toast } from "./lib/toast.ts";
import { Tabs } from "./lib/ui/Tabs.tsx";
import { lazyPart } from "./lib/ui/deferred.tsx";

// The tabs after the first load when first opened: the company's hours (the weekly editor) and
// the super users' tabs, which other admins never download.
const LOADING = <div className="skeleton settings-skeleton" />;
const SchedulesTab = lazyPart(
  () => import("./settings/SchedulesTab.tsx").then((m) => m.SchedulesTab),
  LOADING,
);
const CompaniesTab = lazyPart(
  () => import("./settings/CompaniesTab.tsx").then((m) => m.CompaniesTab),
  LOADING,
);
const PlansTab = lazyPart(() => import("./settings/PlansTab.tsx").then((m) => m.PlansTab), LOADING);
const AssistTab = lazyPart(
  () => import("./settings/AssistTab.tsx").then((m) => m.AssistTab),
  LOADING,
);
const HelpsTab = lazyPart(() => import("./settings/HelpsTab.tsx").then((m) => m.HelpsTab), LOADING);

export type SettingsPageProps = Record<string, never>;

type Setting = { key: string; value: string };

/**
 * /settings (seeds/001 section 2 'Settings screen', admins): the Options tab always, and the
 * Horarios tab while working hours are managed per company (it appears as soon as that is
 * chosen), and for super users the platform's Empresas, Planos and Ajuda tabs (seeds/001
 * section 6: super users only; their routes refuse everyone else on the server).
 */
export default function SettingsPage(_props: SettingsPageProps) {
  const { t } = useTranslation();
  return (
    <AppShell
      title={t("settings.title")}
    >
      <SettingsContent />
    </AppShell>
  );
}

function SettingsContent() {
  const { t } = useTranslation();
  const user = useUser();
  const [settings, setSettings] = useState<Record<string, string> | null>(null);
  const [tab, setTab] = useState("options");

  useEffect(() => {
    api.get<Setting[]>("/settings")
      .then((list) => setSettings(Object.fromEntries(list.map((s) => [s.key, s.value]))))
      .catch(() => setSettings({}));
  }, []);

  const apply = (key: string, value: string) => {
    setSettings((old) => ({ ...old, [key]: value }));
    // Keep the signed-in user's copy current: other parts of the page read settings from it.
    const current = sessionUser.value;
    if (current) {
      const rest = current.company.settings.filter((s) => s.key !== key);
      setSessionUser({
        ...current,
        company: { ...current.company, settings: [...rest, { key, value }] },
      });
    }
  };

  useRealtime("settings", ({ setting }) => apply(setting.key, setting.value));

  const save = async (key: string, value: string): Promise<boolean> => {
    const before = settings?.[key];
    apply(key, value);
    try {
      const saved = await api.put<Setting>(`/settings/${encodeURIComponent(key)}`, { value });
      apply(saved.key, saved.value);
      toast.success({ key: "settings.updated" });
      return true;
    } catch {
      // The api client showed why; the field shows the stored value again.
      if (before !== undefined) apply(key, before);
      return false;
    }
  };

  const companyHours = settings?.scheduleType === "company";
  useEffect(() => {
    if (!companyHours && tab === "schedules") setTab("options");
  }, [companyHours, tab]);

  if (!settings) {
    return (
      <div className="settings-sections" aria-busy="true">
        <div className="skeleton settings-skeleton" />
      </div>
    );
  }

  return (
    <div className="settings-page" data-testid="settings">
      <Tabs
        value={tab}
        onValueChange={setTab}
        label={t("settings.title")}
        tabs={[
          {
            value: "options",
            label: t("settings.tabs.options"),
            content: <OptionsTab settings={settings} save={save} />,
          },
          ...(companyHours
            ? [{
              value: "schedules",
              label: t("settings.tabs.schedules"),
              content: <SchedulesTab companyId={user.companyId} />,
            }]
            : []),
          // Issue 48: the attendant's assistant (plan useAssist).
          ...(user.company.plan?.useAssist === true
            ? [{
              value: "assist",
              label: t("settings.tabs.assist"),
              content: <AssistTab settings={settings} save={save} />,
            }]
            : []),
          ...(can(user, "company:manage")
            ? [
              {
                value: "companies",
                label: t("platform.tabs.companies"),
                content: <CompaniesTab />,
              },
              {
                value: "plans",
                label: t("platform.tabs.plans"),
                content: <PlansTab />,
              },
              {
                value: "helps",
                label: t("platform.tabs.helps"),
                content: <HelpsTab />,
              },
            ]
            : []),
        ]}
      />
    </div>
  );
}
