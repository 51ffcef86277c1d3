import { useCallback, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { AppShell } from "./lib/shell/AppShell.tsx";
import { api } from "./lib/api.ts";
import { can } from "./lib/permissions.ts";
import { useSessionUser, useUser } from "./lib/session.ts";
import { realtime, useRealtime } from "./lib/socket.ts";
import { toast } from "./lib/toast.ts";
import { Button, IconButton } from "./lib/ui/Button.tsx";
import { lazyPart, whenOpen } from "./lib/ui/deferred.tsx";
import type { PromptItem } from "./connections/ConnectionDialog.tsx";
import { StatusBadge } from "./connections/StatusBadge.tsx";
import {
  applySession,
  applyUpdate,
  type Connection,
  formatUpdatedAt,
  normalStatus,
  type QueueItem,
  removeConnection,
  type SessionButton,
  sessionButtons,
  sortConnections,
} from "./connections/model.ts";
import { icon } from "./lib/ui/icon.tsx";

const CirclePlus = icon("circle-plus");
const LoaderCircle = icon("loader-circle");
const Pencil = icon("pencil");
const Plug = icon("plug");
const PlugZap = icon("plug-zap");
const QrCode = icon("qr-code");
const RotateCcw = icon("rotate-ccw");
const Smartphone = icon("smartphone");
const Star = icon("star");
const Trash2 = icon("trash-2");
const Unplug = icon("unplug");

const ConfirmDialog = whenOpen(() =>
  import("./lib/ui/ConfirmDialog.tsx").then((m) => m.ConfirmDialog)
);
const ConnectionDialog = whenOpen(() =>
  import("./connections/ConnectionDialog.tsx").then((m) => m.ConnectionDialog)
);
const QrDialog = lazyPart(() => import("./connections/QrDialog.tsx").then((m) => m.QrDialog));

export type ConnectionsPageProps = Record<string, never>;

function listOf<T>(answer: unknown, key: string): T[] {
  if (Array.isArray(answer)) return answer as T[];
  const value = (answer as Record<string, unknown> | null)?.[key];
  return Array.isArray(value) ? value as T[] : [];
}

type Confirming = { kind: "delete" | "disconnect"; connection: Connection } | null;

/**
 * /connections (seeds/000 sections 2 'Connections' and 4): the company's WhatsApp connections
 * with their live status, the session buttons the status allows, and (admins) add, edit and
 * delete. Rows follow the whatsapp and whatsappSession events without a reload.
 */
export default function ConnectionsPage(_props: ConnectionsPageProps) {
  const { t } = useTranslation();
  return (
    <AppShell title={t("connections.title")} actions={<PageActions />}>
      <Connections />
    </AppShell>
  );
}

/** Opens the add dialog from the page header (outside <Connections>): a small event bus. */
const ADD_EVENT = "balcao:add-connection";

function PageActions() {
  const { t } = useTranslation();
  // The header renders before the session is loaded (on the server too): no user, no buttons.
  const user = useSessionUser();
  return (
    <>
      <a className="btn btn-secondary" href="/simulator" data-testid="open-simulator">
        <Smartphone size={18} aria-hidden="true" />
        {t("connections.openSimulator")}
      </a>
      {can(user, "connections-page:addConnection")
        ? (
          <Button
            variant="primary"
            onClick={() => globalThis.dispatchEvent(new Event(ADD_EVENT))}
            data-testid="add-connection"
          >
            <CirclePlus size={18} aria-hidden="true" />
            {t("connections.add")}
          </Button>
        )
        : null}
    </>
  );
}

function Connections() {
  const { t } = useTranslation();
  const user = useUser();
  const [list, setList] = useState<Connection[] | null>(null);
  const [queues, setQueues] = useState<QueueItem[]>([]);
  const [prompts, setPrompts] = useState<PromptItem[] | null>(null);
  const [integrations, setIntegrations] = useState<PromptItem[] | null>(null);
  const [editing, setEditing] = useState<Connection | null>(null);
  const [formOpen, setFormOpen] = useState(false);
  const [qrId, setQrId] = useState<number | null>(null);
  const [pairing, setPairing] = useState<Record<number, string>>({});
  const [confirming, setConfirming] = useState<Confirming>(null);
  const [busy, setBusy] = useState<Record<number, boolean>>({});
  const admin = can(user, "connections-page:actionButtons");
  const manage = can(user, "connections-page:editOrDeleteConnection");

  const load = useCallback(() => {
    api.get<unknown>("/whatsapp", { query: { session: 0 } })
      .then((answer) => setList(sortConnections(listOf<Connection>(answer, "whatsapps"))))
      .catch(() => setList((old) => old ?? []));
  }, []);

  useEffect(() => {
    load();
    // Queues and prompts fill the form's pickers; the prompts area may not exist (404: hidden).
    api.get<unknown>("/queue", { quiet: true })
      .then((answer) => setQueues(listOf<QueueItem>(answer, "queues")))
      .catch(() => {});
    if (can(user, "connections-page:addConnection")) {
      api.get<unknown>("/prompt", { quiet: true })
        .then((answer) => setPrompts(listOf<PromptItem>(answer, "prompts")))
        .catch(() => setPrompts(null));
      if (user.company.plan?.useIntegrations) {
        api.get<unknown>("/queueIntegration", { quiet: true })
          .then((answer) => setIntegrations(listOf<PromptItem>(answer, "queueIntegrations")))
          .catch(() => setIntegrations(null));
      }
    }
    const add = () => {
      setEditing(null);
      setFormOpen(true);
    };
    globalThis.addEventListener(ADD_EVENT, add);
    return () => globalThis.removeEventListener(ADD_EVENT, add);
  }, []);

  // After a reconnect, events may have been missed: read the list again.
  useRealtime("ready", () => {
    if (list !== null) load();
  });
  useRealtime("whatsapp", (data) => {
    if (data.action === "update") {
      const w = data.whatsapp;
      setList((old) => applyUpdate(old ?? [], w));
    } else {
      const id = data.whatsappId;
      setList((old) => removeConnection(old ?? [], id));
      setQrId((open) => open === id ? null : open);
    }
  });
  useRealtime("whatsappSession", ({ session }) => {
    setList((old) => old ? applySession(old, session) : old);
    setPairing((old) => {
      if (session.pairingCode) return { ...old, [session.id]: session.pairingCode };
      if (normalStatus(session.status) === "PAIRING" || !(session.id in old)) return old;
      const { [session.id]: _gone, ...rest } = old;
      return rest;
    });
  });

  const sessionCall = async (
    c: Connection,
    method: "post" | "put" | "delete",
    then?: () => void,
  ) => {
    setBusy((b) => ({ ...b, [c.id]: true }));
    try {
      const answer = await api[method]<{ whatsapp?: Connection }>(`/whatsappsession/${c.id}`);
      if (answer?.whatsapp) {
        const w = answer.whatsapp;
        setList((old) => applyUpdate(old ?? [], w));
      }
      then?.();
    } catch {
      // the api client showed the error
    } finally {
      setBusy((b) => ({ ...b, [c.id]: false }));
    }
  };

  const onButton = (c: Connection, button: SessionButton) => {
    if (button === "qrcode") setQrId(c.id);
    // 'Try again' and 'new QR' lead to a QR to read: show it as soon as it arrives.
    if (button === "tryAgain") {
      void sessionCall(c, "post", () => c.capabilities.qr && setQrId(c.id));
    }
    if (button === "newQr") void sessionCall(c, "put", () => setQrId(c.id));
    if (button === "disconnect") setConfirming({ kind: "disconnect", connection: c });
  };

  /** The confirmed action; a failed delete keeps the dialog open (the error was shown). */
  const confirm = async () => {
    if (!confirming) return;
    const c = confirming.connection;
    if (confirming.kind === "disconnect") {
      await sessionCall(c, "delete");
      return;
    }
    await api.delete(`/whatsapp/${c.id}`);
    setList((old) => removeConnection(old ?? [], c.id));
    toast.success({ key: "connections.toasts.deleted" });
  };

  const qrConnection = list?.find((c) => c.id === qrId) ?? null;

  if (list === null) {
    return (
      <div className="card conn-card" aria-busy="true">
        {[0, 1, 2].map((i) => <div key={i} className="skeleton conn-skeleton" />)}
      </div>
    );
  }

  return (
    <>
      <div className="card conn-card">
        {list.length === 0
          ? (
            <div className="empty-state" data-testid="connections-empty">
              <PlugZap size={40} aria-hidden="true" />
              <strong>{t("connections.empty.title")}</strong>
              <span>
                {t(manage ? "connections.empty.admin" : "connections.empty.user")}
              </span>
            </div>
          )
          : (
            <div className="table-scroll" tabIndex={0}>
              <table className="conn-table" data-testid="connections-table">
                <thead>
                  <tr>
                    <th>{t("connections.columns.name")}</th>
                    <th>{t("connections.columns.status")}</th>
                    {admin ? <th>{t("connections.columns.session")}</th> : null}
                    <th>{t("connections.columns.updatedAt")}</th>
                    <th className="center">{t("connections.columns.default")}</th>
                    <th className="right">{t("connections.columns.actions")}</th>
                  </tr>
                </thead>
                <tbody>
                  {list.map((c) => (
                    <tr key={c.id} data-testid="connection-row" data-id={c.id} data-name={c.name}>
                      <td className="c-name">
                        <div className="conn-name">
                          <span className="conn-title">{c.name}</span>
                          <span className="conn-sub">
                            {c.capabilities.simulated
                              ? (
                                <span className="conn-tag">
                                  {t("connections.providers.simulatorShort")}
                                </span>
                              )
                              : null}
                            {c.number ? <span className="mono">+{c.number}</span> : null}
                          </span>
                        </div>
                      </td>
                      <td className="c-status">
                        <StatusBadge status={c.status} />
                      </td>
                      {admin
                        ? (
                          <td className="c-session">
                            <SessionButtons
                              connection={c}
                              busy={busy[c.id] === true}
                              onClick={(b) => onButton(c, b)}
                            />
                          </td>
                        )
                        : null}
                      <td
                        className="nowrap c-updated"
                        data-label={t("connections.columns.updatedAt")}
                        data-testid="connection-updated"
                      >
                        <span className="nowrap">{formatUpdatedAt(c.updatedAt)}</span>
                      </td>
                      <td className="center c-default">
                        {c.isDefault
                          ? (
                            <span
                              className="default-mark"
                              data-testid="default-mark"
                              title={t("connections.columns.default")}
                            >
                              <Star size={18} aria-label={t("connections.isDefault")} />
                            </span>
                          )
                          : null}
                      </td>
                      <td className="right nowrap c-actions">
                        {c.capabilities.simulated
                          ? (
                            <a
                              className="icon-btn"
                              href={`/simulator?whatsappId=${c.id}`}
                              aria-label={t("connections.openSimulator")}
                              title={t("connections.openSimulator")}
                            >
                              <Smartphone size={18} aria-hidden="true" />
                            </a>
                          )
                          : null}
                        {manage
                          ? (
                            <>
                              <IconButton
                                label={t("common.edit")}
                                data-testid="edit-connection"
                                onClick={() => {
                                  setEditing(c);
                                  setFormOpen(true);
                                }}
                              >
                                <Pencil size={18} aria-hidden="true" />
                              </IconButton>
                              <IconButton
                                label={t("common.delete")}
                                data-testid="delete-connection"
                                className="danger"
                                onClick={() => setConfirming({ kind: "delete", connection: c })}
                              >
                                <Trash2 size={18} aria-hidden="true" />
                              </IconButton>
                            </>
                          )
                          : null}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
      </div>

      {manage
        ? (
          <ConnectionDialog
            open={formOpen}
            onOpenChange={setFormOpen}
            id={editing?.id ?? null}
            // A credentials channel is read again: its settings (webhook URL) are not in the list.
            record={editing?.capabilities.credentials ? undefined : editing}
            queues={queues}
            prompts={prompts}
            integrations={integrations}
            onSaved={(saved) => {
              const created = editing === null;
              setList((old) => applyUpdate(old ?? [], saved));
              const s = normalStatus(saved.status);
              // A new connection starts at once: show its QR as soon as it exists.
              if (created && saved.capabilities.qr && (s === "qrcode" || s === "OPENING")) {
                setQrId(saved.id);
              }
            }}
          />
        )
        : null}

      {qrConnection
        ? (
          <QrDialog
            connection={qrConnection}
            pairingCode={qrId !== null ? pairing[qrId] ?? null : null}
            onClose={() => setQrId(null)}
          />
        )
        : null}

      <ConfirmDialog
        open={confirming !== null}
        onOpenChange={(open) => !open && setConfirming(null)}
        title={confirming
          ? t(
            confirming.kind === "delete"
              ? "connections.confirm.deleteTitle"
              : "connections.confirm.disconnectTitle",
            { name: confirming.connection.name },
          )
          : ""}
        description={t(
          confirming?.kind === "disconnect"
            ? "connections.confirm.disconnectText"
            : "connections.confirm.deleteText",
        )}
        confirmLabel={t(
          confirming?.kind === "disconnect" ? "connections.buttons.disconnect" : "common.delete",
        )}
        danger
        onConfirm={confirm}
      />
      <SocketHint />
    </>
  );
}

const BUTTON_ICONS = {
  qrcode: QrCode,
  tryAgain: RotateCcw,
  newQr: QrCode,
  disconnect: Unplug,
  connecting: LoaderCircle,
};

function SessionButtons(
  { connection, busy, onClick }: {
    connection: Connection;
    busy: boolean;
    onClick: (button: SessionButton) => void;
  },
) {
  const { t } = useTranslation();
  return (
    <div className="session-buttons">
      {sessionButtons(connection.status, connection.capabilities.qr).map((b) => {
        const Icon = BUTTON_ICONS[b];
        return (
          <Button
            key={b}
            variant={b === "qrcode" ? "primary" : b === "disconnect" ? "secondary" : "secondary"}
            className="btn-sm"
            disabled={b === "connecting" || busy}
            onClick={() => onClick(b)}
            data-testid={`session-${b}`}
          >
            <Icon
              size={16}
              aria-hidden="true"
              className={b === "connecting" ? "spin" : undefined}
            />
            {t(`connections.buttons.${b}`)}
          </Button>
        );
      })}
    </div>
  );
}

/** While the realtime connection is down, statuses may be stale: say so. */
function SocketHint() {
  const { t } = useTranslation();
  const [down, setDown] = useState(false);
  useRealtime("disconnect", () => setDown(true));
  useRealtime("ready", () => setDown(false));
  if (!down || realtime.connected) return null;
  return (
    <p className="conn-offline" role="status">
      <Plug size={14} aria-hidden="true" />
      {t("connections.offline")}
    </p>
  );
}
