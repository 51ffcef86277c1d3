import { useTranslation } from "react-i18next";
import { AppShell } from "./lib/shell/AppShell.tsx";
import { FILES_GUARD } from "./lib/campaign_guard.ts";
import type { FileListView } from "../contract/campaign_types.ts";
import { DeleteDialog } from "./lib/list/DeleteDialog.tsx";
import { useRecordDialogs, useResourceList, useWindowEvent } from "./lib/list/hooks.ts";
import { AddButton, ListSearch, ResourceTable, RowActions } from "./lib/list/ResourceList.tsx";
import { byName } from "./lib/list/list_controller.ts";
import { whenOpen } from "./lib/ui/deferred.tsx";

const FileListDialog = whenOpen(() =>
  import("./files/FileListDialog.tsx").then((m) => m.FileListDialog)
);

export type FilesPageProps = Record<string, never>;

const OPEN_ADD = "files:add";

/** /files (seeds/002 section 2.5): searchable file lists with infinite scroll. */
export default function FilesPage(_props: FilesPageProps) {
  const { t } = useTranslation();
  return (
    <AppShell
      guard={FILES_GUARD}
      title={t("files.title")}
      actions={<AddButton event={OPEN_ADD} label={t("files.add")} />}
    >
      <Files />
    </AppShell>
  );
}

function Files() {
  const { t } = useTranslation();
  const list = useResourceList<FileListView>({
    path: "/files",
    records: "files",
    channel: "file",
    sort: byName,
  });
  const dialogs = useRecordDialogs<FileListView>();
  useWindowEvent(OPEN_ADD, dialogs.add);
  return (
    <div className="people-page">
      <ListSearch list={list} placeholder={t("common.search")} testId="files-search" />
      <ResourceTable
        list={list}
        testId="files-list"
        empty={t("files.empty")}
        head={
          <>
            <th>{t("files.name")}</th>
            <th className="col-hide-sm">{t("files.files")}</th>
            <th className="col-actions" />
          </>
        }
      >
        {list.items.map((f) => (
          <tr key={f.id} data-testid="file-list-row">
            <td className="people-name">{f.name}</td>
            <td className="col-hide-sm">{f.options.length}</td>
            <RowActions onEdit={() => dialogs.edit(f.id)} onDelete={() => dialogs.askDelete(f)} />
          </tr>
        ))}
      </ResourceTable>
      <FileListDialog
        open={dialogs.editing !== null}
        listId={dialogs.editing?.id ?? null}
        onOpenChange={(open) => !open && dialogs.closeEdit()}
        onSaved={list.upsert}
      />
      <DeleteDialog
        list={list}
        target={dialogs.deleting}
        onClose={dialogs.closeDelete}
        path="/files"
        title={t("files.deleteTitle")}
        successKey="files.deleted"
      />
    </div>
  );
}
