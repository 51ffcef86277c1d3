import { useTranslation } from "react-i18next";
import { api } from "../lib/api.ts";
import { byName } from "../lib/list/list_controller.ts";
import { ADD_EVENT, type ListSpec, RecordList, useRecordPage } from "../lib/list/RecordPage.tsx";
import { AddButton, RowActions } from "../lib/list/ResourceList.tsx";
import { toast } from "../lib/toast.ts";
import { IconButton } from "../lib/ui/Button.tsx";
import { whenOpen } from "../lib/ui/deferred.tsx";
import { useCompanyClock } from "../lib/clock.ts";
import type { WebhookView } from "../../contract/webhook_types.ts";
import { icon } from "../lib/ui/icon.tsx";

const Power = icon("power");

const WebhookDialog = whenOpen(() => import("./WebhookDialog.tsx").then((m) => m.WebhookDialog));

const WEBHOOKS: ListSpec<WebhookView> = {
  path: "/webhooks",
  records: "webhooks",
  channel: "webhook",
  sort: byName,
  testId: "webhooks",
  empty: "messagesApi.webhooks.empty",
  head: [
    "messagesApi.webhooks.name",
    "messagesApi.webhooks.url",
    "messagesApi.webhooks.state",
    "messagesApi.webhooks.last",
  ],
  remove: { title: "messagesApi.webhooks.deleteTitle", done: "messagesApi.webhooks.deleted" },
};

/**
 * The webhooks of the company (issue 16) on /messages-api: URL, events, state (a disabled one
 * shows why) and the last delivery's answer, live on `company-<id>-webhook`; add, edit, enable
 * again, delete.
 */
export function Webhooks() {
  const { t } = useTranslation();
  const page = useRecordPage(WEBHOOKS);
  // The webhooks route has no GET by id: the dialog takes the row.
  const record = page.list.items.find((w) => w.id === page.form.id) ?? null;
  const show = useCompanyClock().show;
  const when = (iso: string | null) => (iso ? show(iso) : "");

  const enable = async (hook: WebhookView) => {
    try {
      page.list.upsert(await api.put<WebhookView>(`/webhooks/${hook.id}`, { active: true }));
      toast.success({ key: "messagesApi.webhooks.enabled" });
    } catch {
      // the api client toasted
    }
  };

  const heading = (
    <>
      <div className="api-card-head">
        <h2 className="api-card-title">{t("messagesApi.webhooks.title")}</h2>
        <AddButton event={ADD_EVENT} label={t("messagesApi.webhooks.add")} />
      </div>
      <p className="api-hint">{t("messagesApi.webhooks.hint")}</p>
    </>
  );
  return (
    <RecordList
      page={page}
      className="card api-card"
      heading={heading}
      dialog={<WebhookDialog {...page.form} record={record} />}
    >
      {page.list.items.map((hook) => (
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
          <RowActions {...page.actions(hook)}>
            {hook.active ? null : (
              <IconButton
                label={t("messagesApi.webhooks.enable")}
                onClick={() => enable(hook)}
              >
                <Power size={18} aria-hidden="true" />
              </IconButton>
            )}
          </RowActions>
        </tr>
      ))}
    </RecordList>
  );
}
