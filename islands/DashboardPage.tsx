import { useTranslation } from "react-i18next";
import { AppShell } from "./lib/shell/AppShell.tsx";
import { isAdmin } from "./lib/session.ts";

export type DashboardPageProps = Record<string, never>;

/**
 * / (seeds/000 section 2 'Dashboard (admin)'). The shell with an empty main area: the dashboard's
 * cards and charts belong to the admin area. Attendants are sent to their tickets.
 */
export default function DashboardPage(_props: DashboardPageProps) {
  const { t } = useTranslation();
  return (
    <AppShell
      title={t("dashboard.title")}
      guard={{ allow: isAdmin, message: "errors.accessDenied", redirectTo: "/tickets" }}
    >
      <div className="dashboard" data-testid="dashboard" />
    </AppShell>
  );
}
