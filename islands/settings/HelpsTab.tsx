import type { HelpView } from "../../contract/platform_types.ts";
import { type ListSpec, useRecordPage } from "../lib/list/RecordPage.tsx";
import { RowActions } from "../lib/list/ResourceList.tsx";
import { whenOpen } from "../lib/ui/deferred.tsx";
import { PlatformTab } from "./PlatformTab.tsx";

const HelpDialog = whenOpen(() => import("./HelpDialog.tsx").then((m) => m.HelpDialog));

const HELPS: ListSpec<HelpView> = {
  path: "/helps",
  records: "helps",
  sort: (a, b) => a.title.localeCompare(b.title) || a.id - b.id,
  testId: "helps",
  search: "platform.helps.search",
  empty: "platform.helps.empty",
  head: [
    "platform.helps.titleField",
    ["platform.helps.description", "col-hide-sm"],
    "platform.helps.video",
  ],
  remove: { title: "platform.helps.deleteTitle", done: "platform.done" },
};

/** The Ajuda tab (super users, seeds/001 section 2): title, description, video id. */
export function HelpsTab() {
  const page = useRecordPage(HELPS);
  // The helps route has no GET by id: the dialog takes the row.
  const record = page.list.items.find((h) => h.id === page.form.id) ?? null;
  return (
    <PlatformTab
      page={page}
      add="platform.helps.add"
      dialog={<HelpDialog {...page.form} record={record} />}
    >
      {page.list.items.map((h) => (
        <tr key={h.id} data-testid="help-row" data-help-id={h.id}>
          <td className="people-name">{h.title}</td>
          <td className="col-hide-sm">{h.description}</td>
          <td>{h.video}</td>
          <RowActions {...page.actions(h)} />
        </tr>
      ))}
    </PlatformTab>
  );
}
