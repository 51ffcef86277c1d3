import { useEffect, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { api } from "./lib/api.ts";
import { DEFAULT_OFFLINE_MINUTES, type Queue } from "../contract/queue_types.ts";
import { useSessionUser } from "./lib/session.ts";
import { can } from "./lib/permissions.ts";
import { AppShell } from "./lib/shell/AppShell.tsx";
import { useRealtime } from "./lib/socket.ts";
import { toast } from "./lib/toast.ts";
import { Button, IconButton } from "./lib/ui/Button.tsx";
import { whenOpen } from "./lib/ui/deferred.tsx";
import { icon } from "./lib/ui/icon.tsx";

const ListTree = icon("list-tree");
const Pencil = icon("pencil");
const Plus = icon("plus");
const Search = icon("search");
const Trash2 = icon("trash-2");

const QueueDialog = whenOpen(() => import("./queues/QueueDialog.tsx").then((m) => m.QueueDialog));
const ConfirmDialog = whenOpen(() =>
  import("./lib/ui/ConfirmDialog.tsx").then((m) => m.ConfirmDialog)
);

export type QueuesPageProps = Record<string, never>;

/** The server's order: orderQueue (empty last), then name, then id. */
export function sortQueues(list: Queue[]): Queue[] {
  return [...list].sort((a, b) => {
    if ((a.orderQueue === null) !== (b.orderQueue === null)) return a.orderQueue === null ? 1 : -1;
    if (a.orderQueue !== null && b.orderQueue !== null && a.orderQueue !== b.orderQueue) {
      return a.orderQueue - b.orderQueue;
    }
    return a.name.localeCompare(b.name, undefined, { sensitivity: "base" }) || a.id - b.id;
  });
}

/**
 * /queues, 'Filas & Chatbot' (seeds/001 sections 2 and 4, admins): the company's queues with
 * name, colour, order and greeting; add and edit in the queue dialog (data, working hours when
 * they are managed per queue, and the chatbot options tree), delete after a confirmation. The
 * list follows `company-<id>-queue` events live.
 */
export default function QueuesPage(_props: QueuesPageProps) {
  const { t } = useTranslation();
  const user = useSessionUser();
  const ready = can(user, "queue:manage");
  const [queues, setQueues] = useState<Queue[] | null>(null);
  const [scheduleType, setScheduleType] = useState("disabled");
  const [offlineMinutes, setOfflineMinutes] = useState(String(DEFAULT_OFFLINE_MINUTES));
  const [search, setSearch] = useState("");
  const [dialog, setDialog] = useState<{ queue: Queue | null } | null>(null);
  const [deleting, setDeleting] = useState<Queue | null>(null);

  useEffect(() => {
    if (!ready) return;
    api.get<Queue[]>("/queue").then((list) => setQueues(sortQueues(list))).catch(() =>
      setQueues([])
    );
    api.get<{ key: string; value: string }[]>("/settings", { quiet: true }).then((list) => {
      const found = list.find((s) => s.key === "scheduleType");
      if (found) setScheduleType(found.value);
      const offline = list.find((s) => s.key === "distributionOfflineMinutes");
      if (offline && offline.value !== "") setOfflineMinutes(offline.value);
    }).catch(() => {});
  }, [ready]);

  const upsert = (queue: Queue) =>
    setQueues((old) =>
      sortQueues(
        old?.some((q) => q.id === queue.id)
          ? old.map((q) => q.id === queue.id ? queue : q)
          : [...(old ?? []), queue],
      )
    );

  useRealtime("queue", (event) => {
    if (event.action === "create" || event.action === "update") upsert(event.queue);
    if (event.action === "delete") {
      const id = event.queueId;
      setQueues((old) => old?.filter((q) => q.id !== id) ?? old);
    }
  });

  useRealtime("settings", ({ setting }) => {
    if (setting.key === "scheduleType") setScheduleType(setting.value);
    if (setting.key === "distributionOfflineMinutes") setOfflineMinutes(setting.value);
  });

  const visible = useMemo(() => {
    const term = search.trim().toLocaleLowerCase();
    if (!queues || !term) return queues;
    return queues.filter((q) => q.name.toLocaleLowerCase().includes(term));
  }, [queues, search]);

  const remove = async (queue: Queue) => {
    await api.delete(`/queue/${queue.id}`);
    setQueues((old) => old?.filter((q) => q.id !== queue.id) ?? old);
    toast.success({ key: "queues.deleted" });
  };

  return (
    <AppShell
      title={t("queues.title")}
      actions={
        <>
          <label className="search-box">
            <Search size={16} aria-hidden="true" />
            <input
              type="search"
              className="input"
              placeholder={t("common.search")}
              aria-label={t("queues.search")}
              value={search}
              onChange={(e) => setSearch(e.target.value)}
              data-testid="queues-search"
            />
          </label>
          <Button
            variant="primary"
            onClick={() => setDialog({ queue: null })}
            disabled={!ready}
            data-testid="queue-add"
          >
            <Plus size={16} aria-hidden="true" />
            {t("queues.add")}
          </Button>
        </>
      }
    >
      <div className="card queues-card">
        {visible === null
          ? (
            <div className="queues-loading" aria-busy="true">
              {[0, 1, 2].map((i) => <div key={i} className="skeleton queues-skeleton" />)}
            </div>
          )
          : visible.length === 0
          ? (
            <div className="empty-state" data-testid="queues-empty">
              <ListTree size={32} aria-hidden="true" />
              {queues && queues.length > 0 ? t("queues.noMatch") : t("queues.empty")}
            </div>
          )
          : (
            <table className="queues-table" data-testid="queues-table">
              <thead>
                <tr>
                  <th scope="col">{t("queues.columns.name")}</th>
                  <th scope="col">{t("queues.columns.color")}</th>
                  <th scope="col" className="num">{t("queues.columns.orderQueue")}</th>
                  <th scope="col">{t("queues.columns.greeting")}</th>
                  <th scope="col" className="actions">{t("queues.columns.actions")}</th>
                </tr>
              </thead>
              <tbody>
                {visible.map((queue) => (
                  <tr key={queue.id} data-queue-id={queue.id} data-testid="queue-row">
                    <td className="queue-name">{queue.name}</td>
                    <td>
                      <span className="queue-color">
                        <span
                          className="queue-swatch"
                          style={{ background: queue.color }}
                          aria-hidden="true"
                        />
                        <span className="queue-hex">{queue.color}</span>
                      </span>
                    </td>
                    <td className="num">{queue.orderQueue ?? "—"}</td>
                    <td className="queue-greeting" title={queue.greetingMessage || undefined}>
                      {queue.greetingMessage || <span className="muted">—</span>}
                    </td>
                    <td className="actions">
                      <IconButton
                        label={t("queues.editNamed", { name: queue.name })}
                        onClick={() =>
                          setDialog({ queue })}
                      >
                        <Pencil size={16} aria-hidden="true" />
                      </IconButton>
                      <IconButton
                        label={t("queues.deleteNamed", { name: queue.name })}
                        className="icon-danger"
                        onClick={() =>
                          setDeleting(queue)}
                      >
                        <Trash2 size={16} aria-hidden="true" />
                      </IconButton>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
      </div>
      <QueueDialog
        open={dialog !== null}
        onOpenChange={(open) => !open && setDialog(null)}
        id={dialog?.queue?.id ?? null}
        record={dialog?.queue ?? null}
        queues={queues ?? []}
        scheduleType={scheduleType}
        offlineMinutes={offlineMinutes}
        onSaved={upsert}
      />
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(open) => !open && setDeleting(null)}
        title={t("queues.deleteTitle", { name: deleting?.name ?? "" })}
        danger
        description={t("queues.deleteMessage")}
        confirmLabel={t("common.delete")}
        onConfirm={() => deleting && remove(deleting)}
      />
    </AppShell>
  );
}
