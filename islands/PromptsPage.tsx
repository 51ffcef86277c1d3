import { ListPage, type ListSpec, RecordList, useRecordPage } from "./lib/list/RecordPage.tsx";
import { RowActions } from "./lib/list/ResourceList.tsx";
import { planGuard } from "./lib/permissions.ts";
import { byName } from "./lib/list/list_controller.ts";
import type { PromptView } from "../contract/integrations.ts";
import { whenOpen } from "./lib/ui/deferred.tsx";

const PromptDialog = whenOpen(() =>
  import("./prompts/PromptDialog.tsx").then((m) => m.PromptDialog)
);

export type PromptsPageProps = Record<string, never>;

/** /prompts (seeds/002 section 2.8): the company's AI prompts, each bound to a queue. */
export default function PromptsPage(_props: PromptsPageProps) {
  return (
    <ListPage title="prompts.title" add="prompts.add" guard={planGuard("useOpenAi")}>
      <Prompts />
    </ListPage>
  );
}

const PROMPTS: ListSpec<PromptView> = {
  path: "/prompt",
  records: "prompts",
  channel: "prompt",
  sort: byName,
  testId: "prompts",
  empty: "prompts.empty",
  head: ["prompts.name", "prompts.queue", ["prompts.maxTokens", "col-hide-sm"]],
  remove: { title: "prompts.deleteTitle", done: "prompts.toasts.deleted" },
};

function Prompts() {
  const page = useRecordPage(PROMPTS);
  return (
    <RecordList page={page} dialog={<PromptDialog {...page.form} />}>
      {page.list.items.map((row) => (
        <tr key={row.id} data-testid="prompt-row">
          <td className="people-name">{row.name}</td>
          <td>{row.queue?.name ?? ""}</td>
          <td className="col-hide-sm">{row.maxTokens}</td>
          <RowActions {...page.actions(row)} />
        </tr>
      ))}
    </RecordList>
  );
}
