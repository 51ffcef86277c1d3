import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { AppShell } from "./lib/shell/AppShell.tsx";
import { storedToken } from "./lib/storage.ts";

export type NotFoundPageProps = Record<string, never>;

function Message() {
  const { t } = useTranslation();
  return (
    <div className="empty-state" data-testid="not-found">
      <div className="auth-code">404</div>
      <h2>{t("notFound.title")}</h2>
      <p>{t("notFound.text")}</p>
      <a className="btn btn-primary" href="/">{t("notFound.home")}</a>
    </div>
  );
}

/** Any unknown page path: inside the shell for a signed-in user, a plain card otherwise. */
export default function NotFoundPage(_props: NotFoundPageProps) {
  const { t } = useTranslation();
  const [signedIn, setSignedIn] = useState(false);
  useEffect(() => setSignedIn(storedToken() !== null), []);
  if (signedIn) {
    return (
      <AppShell title={t("notFound.title")}>
        <Message />
      </AppShell>
    );
  }
  return (
    <div className="auth">
      <main className="auth-card card">
        <Message />
      </main>
    </div>
  );
}
