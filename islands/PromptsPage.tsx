import { useTranslation } from "react-i18next";
import { AppShell } from "./lib/shell/AppShell.tsx";
import { planGuard } from "./lib/permissions.ts";
import { DeleteDialog } from "./lib/list/DeleteDialog.tsx";
import { useRecordDialogs, useResourceList, useWindowEvent } from "./lib/list/hooks.ts";
import { AddButton, ResourceTable, RowActions } from "./lib/list/ResourceList.tsx";
import { byName } from "./lib/list/list_controller.ts";
import type { PromptView } from "../contract/integrations.ts";
import { whenOpen } from "./lib/ui/deferred.tsx";

const PromptDialog = whenOpen(() =>
  import("./prompts/PromptDialog.tsx").then((m) => m.PromptDialog)
);

export type PromptsPageProps = Record<string, never>;

const OPEN_ADD = "prompts:add";

/** /prompts (seeds/002 section 2.8): the company's AI prompts, each bound to a queue. */
export default function PromptsPage(_props: PromptsPageProps) {
  const { t } = useTranslation();
  return (
    <AppShell
      title={t("prompts.title")}
      actions={<AddButton event={OPEN_ADD} label={t("prompts.add")} />}
      guard={planGuard("useOpenAi")}
    >
      <Prompts />
    </AppShell>
  );
}

const PROMPTS = { path: "/prompt", records: "prompts", channel: "prompt" as const, sort: byName };

function Prompts() {
  const { t } = useTranslation();
  const list = useResourceList<PromptView>(PROMPTS);
  const dialogs = useRecordDialogs<PromptView>();
  useWindowEvent(OPEN_ADD, dialogs.add);
  return (
    <div className="people-page">
      <ResourceTable
        list={list}
        testId="prompts-list"
        empty={t("prompts.empty")}
        head={
          <>
            <th>{t("prompts.name")}</th>
            <th>{t("prompts.queue")}</th>
            <th className="col-hide-sm">{t("prompts.maxTokens")}</th>
            <th className="col-actions" />
          </>
        }
      >
        {list.items.map((row) => (
          <tr key={row.id} data-testid="prompt-row">
            <td className="people-name">{row.name}</td>
            <td>{row.queue?.name ?? ""}</td>
            <td className="col-hide-sm">{row.maxTokens}</td>
            <RowActions
              onEdit={() => dialogs.edit(row.id)}
              onDelete={() => dialogs.askDelete(row)}
            />
          </tr>
        ))}
      </ResourceTable>
      <PromptDialog
        open={dialogs.editing !== null}
        onOpenChange={(open) => !open && dialogs.closeEdit()}
        promptId={dialogs.editing?.id ?? null}
        onSaved={list.upsert}
      />
      <DeleteDialog
        list={list}
        target={dialogs.deleting}
        onClose={dialogs.closeDelete}
        path="/prompt"
        title={t("prompts.deleteTitle", { name: dialogs.deleting?.name ?? "" })}
        successKey="prompts.toasts.deleted"
      />
    </div>
  );
}
