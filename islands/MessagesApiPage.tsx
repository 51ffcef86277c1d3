import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { api } from "./lib/api.ts";
import type { Connection } from "../contract/connection.ts";
import { can } from "./lib/permissions.ts";
import { AppShell } from "./lib/shell/AppShell.tsx";
import { useRealtime } from "./lib/socket.ts";
import { toast } from "./lib/toast.ts";
import type { SessionUser } from "../contract/types.ts";
import { IconButton } from "./lib/ui/Button.tsx";
import { lazyPart, whenOpen } from "./lib/ui/deferred.tsx";
import { applyUpdate } from "./connections/model.ts";
import { StatusBadge } from "./connections/StatusBadge.tsx";
import { curlExamples, SEND_PATH } from "./messages_api/client.ts";
import { icon } from "./lib/ui/icon.tsx";

const Copy = icon("copy");
const RefreshCw = icon("refresh-cw");

export type MessagesApiPageProps = Record<string, never>;

const ConfirmDialog = whenOpen(() =>
  import("./lib/ui/ConfirmDialog.tsx").then((m) => m.ConfirmDialog)
);

// Below the token table and the examples: the test forms and the webhooks (with the list kit)
// load after the page (issue 33).
const TestForms = lazyPart(() => import("./messages_api/TestForms.tsx").then((m) => m.TestForms));
const Webhooks = lazyPart(() => import("./messages_api/Webhooks.tsx").then((m) => m.Webhooks));

/** Admins of a plan with useExternalApi (the server refuses the rest: requirePlan, admin). */
function allowed(user: SessionUser): boolean {
  return can(user, "webhook:manage") && user.company.plan?.useExternalApi === true;
}

/**
 * /messages-api (issue 16, seeds/002 section 2.1): the send API's endpoint, each connection's
 * token, curl examples, and two test forms that call the API with a connection's token as an
 * outside system would. The server keeps only a token's hash (issue 35): the table shows its hint,
 * and a new token, made here, is shown (and copied) this once.
 */
export default function MessagesApiPage(_props: MessagesApiPageProps) {
  const { t } = useTranslation();
  return (
    <AppShell
      title={t("messagesApi.title")}
      guard={{ allow: allowed, message: "errors.accessDenied", redirectTo: "/tickets" }}
    >
      <MessagesApi />
    </AppShell>
  );
}

async function copy(text: string, what: string) {
  try {
    await navigator.clipboard.writeText(text);
    toast.success({ key: "messagesApi.copied", values: { what } });
  } catch (error) {
    toast.error(error);
  }
}

function MessagesApi() {
  const { t } = useTranslation();
  const [connections, setConnections] = useState<Connection[] | null>(null);
  /** Tokens made on this page, by connection: shown until the page is left. */
  const [fresh, setFresh] = useState<Record<number, string>>({});
  const [regenerating, setRegenerating] = useState<Connection | null>(null);
  const [origin, setOrigin] = useState("");

  const regenerate = async (connection: Connection) => {
    const saved = await api.post<Connection>(`/whatsapp/${connection.id}/token`, {});
    if (saved.token) setFresh((old) => ({ ...old, [connection.id]: saved.token! }));
    setConnections((old) => applyUpdate(old ?? [], { ...saved, token: undefined }));
    toast.success({ key: "messagesApi.tokenMade" });
  };

  useEffect(() => {
    setOrigin(location.origin);
    api.get<Connection[]>("/whatsapp", { query: { session: 0 } })
      .then(setConnections).catch(() => setConnections([]));
  }, []);

  useRealtime("whatsapp", (data) => {
    if (data.action === "update") {
      const w = data.whatsapp;
      setConnections((old) => applyUpdate(old ?? [], w));
    } else {
      const id = data.whatsappId;
      setConnections((old) => (old ?? []).filter((c) => c.id !== id));
    }
  });

  const endpoint = `${origin}${SEND_PATH}`;
  const examples = curlExamples(origin, "$TOKEN");
  return (
    <div className="api-page">
      <section className="card api-card">
        <h2 className="api-card-title">{t("messagesApi.endpoint")}</h2>
        <p className="api-hint">{t("messagesApi.endpointHint")}</p>
        <div className="api-endpoint">
          <code data-testid="api-endpoint">POST {endpoint}</code>
          <IconButton
            label={t("messagesApi.copy")}
            onClick={() => copy(endpoint, t("messagesApi.endpoint"))}
          >
            <Copy size={16} aria-hidden="true" />
          </IconButton>
        </div>
        <ul className="api-rules">
          <li>{t("messagesApi.rules.auth")}</li>
          <li>{t("messagesApi.rules.number")}</li>
          <li>{t("messagesApi.rules.ticket")}</li>
          <li>{t("messagesApi.rules.idempotency")}</li>
          <li>{t("messagesApi.rules.limit")}</li>
        </ul>
      </section>

      <section className="card api-card">
        <h2 className="api-card-title">{t("messagesApi.tokens")}</h2>
        {connections === null
          ? <p>{t("common.loading")}</p>
          : connections.length === 0
          ? <p>{t("messagesApi.noConnections")}</p>
          : (
            <table className="api-tokens" data-testid="api-tokens">
              <thead>
                <tr>
                  <th>{t("messagesApi.connection")}</th>
                  <th>{t("messagesApi.status")}</th>
                  <th>{t("messagesApi.token")}</th>
                  <th className="col-actions" />
                </tr>
              </thead>
              <tbody>
                {connections.map((c) => (
                  <tr key={c.id}>
                    <td>{c.name}</td>
                    <td>
                      <StatusBadge status={c.status} />
                    </td>
                    <td>
                      <code className="api-token" data-testid={`api-token-${c.id}`}>
                        {fresh[c.id] ?? c.tokenHint}
                      </code>
                      {fresh[c.id] && <p className="api-hint">{t("messagesApi.tokenOnce")}</p>}
                    </td>
                    <td className="col-actions">
                      {fresh[c.id] && (
                        <IconButton
                          label={t("messagesApi.copy")}
                          onClick={() => copy(fresh[c.id], t("messagesApi.token"))}
                        >
                          <Copy size={16} aria-hidden="true" />
                        </IconButton>
                      )}
                      <IconButton
                        label={t("messagesApi.regenerate")}
                        onClick={() => setRegenerating(c)}
                      >
                        <RefreshCw size={16} aria-hidden="true" />
                      </IconButton>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
      </section>

      <ConfirmDialog
        open={regenerating !== null}
        onOpenChange={(open) => !open && setRegenerating(null)}
        title={t("messagesApi.regenerateTitle", { name: regenerating?.name ?? "" })}
        description={t("messagesApi.regenerateText")}
        confirmLabel={t("messagesApi.regenerate")}
        danger
        onConfirm={() => regenerating && regenerate(regenerating)}
      />

      <section className="card api-card">
        <h2 className="api-card-title">{t("messagesApi.examples")}</h2>
        <p className="api-hint">{t("messagesApi.examplesHint")}</p>
        <h3 className="api-sub">{t("messagesApi.textMessage")}</h3>
        <pre className="api-code">{examples.text}</pre>
        <h3 className="api-sub">{t("messagesApi.fileMessage")}</h3>
        <pre className="api-code">{examples.file}</pre>
      </section>

      <TestForms connections={connections ?? []} tokens={fresh} />

      <Webhooks />
    </div>
  );
}
