import { useTranslation } from "react-i18next";
import Power from "lucide-react/icons/power";
import { api } from "../lib/api.ts";
import { DeleteDialog } from "../lib/list/DeleteDialog.tsx";
import { useRecordDialogs, useResourceList, useWindowEvent } from "../lib/list/hooks.ts";
import { byName } from "../lib/list/list_controller.ts";
import { AddButton, ResourceTable, RowActions } from "../lib/list/ResourceList.tsx";
import { toast } from "../lib/toast.ts";
import { IconButton } from "../lib/ui/Button.tsx";
import { whenOpen } from "../lib/ui/deferred.tsx";
import type { WebhookView } from "../../contract/webhook_types.ts";

const WebhookDialog = whenOpen(() => import("./WebhookDialog.tsx").then((m) => m.WebhookDialog));

const ADD_EVENT = "webhooks:add";

/**
 * The webhooks of the company (issue 16) on /messages-api: URL, events, state (a disabled one
 * shows why) and the last delivery's answer, live on `company-<id>-webhook`; add, edit, enable
 * again, delete.
 */
export function Webhooks() {
  const { t, i18n } = useTranslation();
  const list = useResourceList<WebhookView>({
    path: "/webhooks",
    records: "webhooks",
    channel: "webhook",
    sort: byName,
  });
  const dialogs = useRecordDialogs<WebhookView>();
  useWindowEvent(ADD_EVENT, dialogs.add);
  const editing = dialogs.editing?.id == null
    ? null
    : list.items.find((w) => w.id === dialogs.editing?.id) ?? null;
  const when = (iso: string | null) =>
    iso
      ? new Date(iso).toLocaleString(i18n.language, { dateStyle: "short", timeStyle: "short" })
      : "";

  const enable = async (hook: WebhookView) => {
    try {
      list.upsert(await api.put<WebhookView>(`/webhooks/${hook.id}`, { active: true }));
      toast.success({ key: "messagesApi.webhooks.enabled" });
    } catch {
      // the api client toasted
    }
  };

  return (
    <section className="card api-card">
      <div className="api-card-head">
        <h2 className="api-card-title">{t("messagesApi.webhooks.title")}</h2>
        <AddButton event={ADD_EVENT} label={t("messagesApi.webhooks.add")} />
      </div>
      <p className="api-hint">{t("messagesApi.webhooks.hint")}</p>
      <ResourceTable
        list={list}
        testId="webhooks-list"
        empty={t("messagesApi.webhooks.empty")}
        head={
          <>
            <th>{t("messagesApi.webhooks.name")}</th>
            <th>{t("messagesApi.webhooks.url")}</th>
            <th>{t("messagesApi.webhooks.state")}</th>
            <th>{t("messagesApi.webhooks.last")}</th>
            <th className="col-actions" />
          </>
        }
      >
        {list.items.map((hook) => (
          <tr key={hook.id} data-testid="webhook-row" data-name={hook.name}>
            <td>{hook.name}</td>
            <td className="api-url">{hook.url}</td>
            <td data-testid="webhook-state" data-active={hook.active}>
              {hook.active
                ? t("messagesApi.webhooks.active")
                : hook.disabledReason
                ? t("messagesApi.webhooks.disabledBecause", { reason: hook.disabledReason })
                : t("messagesApi.webhooks.paused")}
            </td>
            <td>
              {hook.lastDeliveryAt
                ? `${hook.lastStatus ?? hook.lastError ?? "?"} · ${when(hook.lastDeliveryAt)}`
                : t("messagesApi.webhooks.never")}
            </td>
            <RowActions
              onEdit={() => dialogs.edit(hook.id)}
              onDelete={() => dialogs.askDelete(hook)}
            >
              {hook.active
                ? null
                : (
                  <IconButton label={t("messagesApi.webhooks.enable")} onClick={() => enable(hook)}>
                    <Power size={18} aria-hidden="true" />
                  </IconButton>
                )}
            </RowActions>
          </tr>
        ))}
      </ResourceTable>
      <WebhookDialog
        open={dialogs.editing !== null}
        onOpenChange={(open) => !open && dialogs.closeEdit()}
        webhook={editing}
        onSaved={list.upsert}
      />
      <DeleteDialog
        list={list}
        target={dialogs.deleting}
        onClose={dialogs.closeDelete}
        path="/webhooks"
        title={t("messagesApi.webhooks.deleteTitle")}
        successKey="messagesApi.webhooks.deleted"
      />
    </section>
  );
}
