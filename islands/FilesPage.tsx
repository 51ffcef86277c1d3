import { FILES_GUARD } from "./lib/campaign_guard.ts";
import type { FileListView } from "../contract/campaign_types.ts";
import { ListPage, type ListSpec, RecordList, useRecordPage } from "./lib/list/RecordPage.tsx";
import { RowActions } from "./lib/list/ResourceList.tsx";
import { byName } from "./lib/list/list_controller.ts";
import { whenOpen } from "./lib/ui/deferred.tsx";

const FileListDialog = whenOpen(() =>
  import("./files/FileListDialog.tsx").then((m) => m.FileListDialog)
);

export type FilesPageProps = Record<string, never>;

/** /files (seeds/002 section 2.5): searchable file lists with infinite scroll. */
export default function FilesPage(_props: FilesPageProps) {
  return (
    <ListPage title="files.title" add="files.add" guard={FILES_GUARD}>
      <Files />
    </ListPage>
  );
}

const FILES: ListSpec<FileListView> = {
  path: "/files",
  records: "files",
  channel: "file",
  sort: byName,
  testId: "files",
  search: "common.search",
  empty: "files.empty",
  emptyHint: "files.emptyHint",
  head: ["files.name", ["files.files", "col-hide-sm"]],
  remove: { title: "files.deleteTitle", done: "files.deleted" },
};

function Files() {
  const page = useRecordPage(FILES);
  return (
    <RecordList page={page} dialog={<FileListDialog {...page.form} />}>
      {page.list.items.map((f) => (
        <tr key={f.id} data-testid="file-list-row">
          <td className="people-name">{f.name}</td>
          <td className="col-hide-sm">{f.options.length}</td>
          <RowActions {...page.actions(f)} />
        </tr>
      ))}
    </RecordList>
  );
}
