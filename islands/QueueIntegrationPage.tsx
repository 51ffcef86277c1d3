import { useTranslation } from "react-i18next";
import { AppShell } from "./lib/shell/AppShell.tsx";
import { planGuard } from "./lib/permissions.ts";
import { DeleteDialog } from "./lib/list/DeleteDialog.tsx";
import { useRecordDialogs, useResourceList, useWindowEvent } from "./lib/list/hooks.ts";
import { AddButton, ListSearch, ResourceTable, RowActions } from "./lib/list/ResourceList.tsx";
import { byName } from "./lib/list/list_controller.ts";
import type { IntegrationView } from "../contract/integrations.ts";
import { whenOpen } from "./lib/ui/deferred.tsx";

const IntegrationDialog = whenOpen(() =>
  import("./integrations/IntegrationDialog.tsx").then((m) => m.IntegrationDialog)
);

export type QueueIntegrationPageProps = Record<string, never>;

const OPEN_ADD = "integrations:add";

/**
 * /queue-integration (seeds/002 sections 2.9, 6): a searchable list with a dialog, for plans with
 * useIntegrations only (others hear the permission message and go to / after 1 s).
 */
export default function QueueIntegrationPage(_props: QueueIntegrationPageProps) {
  const { t } = useTranslation();
  return (
    <AppShell
      title={t("integrations.title")}
      actions={<AddButton event={OPEN_ADD} label={t("integrations.add")} />}
      guard={planGuard("useIntegrations")}
    >
      <Integrations />
    </AppShell>
  );
}

const INTEGRATIONS = {
  path: "/queueIntegration",
  records: "queueIntegrations",
  channel: "queueIntegration" as const,
  sort: byName,
};

function Integrations() {
  const { t } = useTranslation();
  const list = useResourceList<IntegrationView>(INTEGRATIONS);
  const dialogs = useRecordDialogs<IntegrationView>();
  useWindowEvent(OPEN_ADD, dialogs.add);
  return (
    <div className="people-page">
      <ListSearch list={list} placeholder={t("integrations.search")} testId="integrations-search" />
      <ResourceTable
        list={list}
        testId="integrations-list"
        empty={t("integrations.empty")}
        head={
          <>
            <th>{t("integrations.type")}</th>
            <th>{t("integrations.name")}</th>
            <th className="col-hide-sm">{t("integrations.target")}</th>
            <th className="col-actions" />
          </>
        }
      >
        {list.items.map((row) => (
          <tr key={row.id} data-testid="integration-row">
            <td>{t(`integrations.types.${row.type}`)}</td>
            <td className="people-name">{row.name}</td>
            <td className="col-hide-sm">
              {row.type === "dialogflow" ? row.projectName : row.urlN8N}
            </td>
            <RowActions
              onEdit={() => dialogs.edit(row.id)}
              onDelete={() => dialogs.askDelete(row)}
            />
          </tr>
        ))}
      </ResourceTable>
      <IntegrationDialog
        open={dialogs.editing !== null}
        onOpenChange={(open) => !open && dialogs.closeEdit()}
        integrationId={dialogs.editing?.id ?? null}
        onSaved={list.upsert}
      />
      <DeleteDialog
        list={list}
        target={dialogs.deleting}
        onClose={dialogs.closeDelete}
        path="/queueIntegration"
        title={t("integrations.deleteTitle", { name: dialogs.deleting?.name ?? "" })}
        successKey="integrations.deleted"
      />
    </div>
  );
}
