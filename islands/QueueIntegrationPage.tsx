import { useTranslation } from "react-i18next";
import { ListPage, type ListSpec, RecordList, useRecordPage } from "./lib/list/RecordPage.tsx";
import { RowActions } from "./lib/list/ResourceList.tsx";
import { planGuard } from "./lib/permissions.ts";
import { byName } from "./lib/list/list_controller.ts";
import type { IntegrationView } from "../contract/integrations.ts";
import { whenOpen } from "./lib/ui/deferred.tsx";

const IntegrationDialog = whenOpen(() =>
  import("./integrations/IntegrationDialog.tsx").then((m) => m.IntegrationDialog)
);

export type QueueIntegrationPageProps = Record<string, never>;

/**
 * /queue-integration (seeds/002 sections 2.9, 6): a searchable list with a dialog, for plans with
 * useIntegrations only (others hear the permission message and go to / after 1 s).
 */
export default function QueueIntegrationPage(_props: QueueIntegrationPageProps) {
  return (
    <ListPage
      title="integrations.title"
      add="integrations.add"
      guard={planGuard("useIntegrations")}
    >
      <Integrations />
    </ListPage>
  );
}

const INTEGRATIONS: ListSpec<IntegrationView> = {
  path: "/queueIntegration",
  records: "queueIntegrations",
  channel: "queueIntegration" as const,
  sort: byName,
  testId: "integrations",
  search: "integrations.search",
  empty: "integrations.empty",
  head: ["integrations.type", "integrations.name", ["integrations.target", "col-hide-sm"]],
  remove: { title: "integrations.deleteTitle", done: "integrations.deleted" },
};

function Integrations() {
  const { t } = useTranslation();
  const page = useRecordPage(INTEGRATIONS);
  return (
    <RecordList page={page} dialog={<IntegrationDialog {...page.form} />}>
      {page.list.items.map((row) => (
        <tr key={row.id} data-testid="integration-row">
          <td>{t(`integrations.types.${row.type}`)}</td>
          <td className="people-name">{row.name}</td>
          <td className="col-hide-sm">
            {row.type === "dialogflow" ? row.projectName : row.urlN8N}
          </td>
          <RowActions {...page.actions(row)} />
        </tr>
      ))}
    </RecordList>
  );
}
