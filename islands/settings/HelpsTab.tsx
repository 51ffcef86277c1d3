import { useTranslation } from "react-i18next";
import type { HelpView } from "../../contract/platform_types.ts";
import { DeleteDialog } from "../lib/list/DeleteDialog.tsx";
import { useRecordDialogs, useResourceList } from "../lib/list/hooks.ts";
import { ResourceTable, RowActions } from "../lib/list/ResourceList.tsx";
import { whenOpen } from "../lib/ui/deferred.tsx";
import { PlatformTab } from "./PlatformTab.tsx";

const HelpDialog = whenOpen(() => import("./HelpDialog.tsx").then((m) => m.HelpDialog));

const byTitle = (a: HelpView, b: HelpView) => a.title.localeCompare(b.title) || a.id - b.id;
const HELPS = { path: "/helps", records: "helps", sort: byTitle };

/** The Ajuda tab (super users, seeds/001 section 2): title, description, video id. */
export function HelpsTab() {
  const { t } = useTranslation();
  const list = useResourceList<HelpView>(HELPS);
  const dialogs = useRecordDialogs<HelpView>();
  return (
    <PlatformTab
      list={list}
      search={t("platform.helps.search")}
      addLabel={t("platform.helps.add")}
      onAdd={dialogs.add}
      testId="helps"
    >
      <ResourceTable
        list={list}
        testId="helps-list"
        empty={t("platform.helps.empty")}
        head={
          <>
            <th>{t("platform.helps.titleField")}</th>
            <th className="col-hide-sm">{t("platform.helps.description")}</th>
            <th>{t("platform.helps.video")}</th>
            <th className="col-actions" />
          </>
        }
      >
        {list.items.map((h) => (
          <tr key={h.id} data-testid="help-row" data-help-id={h.id}>
            <td className="people-name">{h.title}</td>
            <td className="col-hide-sm">{h.description}</td>
            <td>{h.video}</td>
            <RowActions
              onEdit={() => dialogs.edit(h.id)}
              onDelete={() => dialogs.askDelete(h)}
            />
          </tr>
        ))}
      </ResourceTable>
      <HelpDialog
        open={dialogs.editing !== null}
        onOpenChange={(open) => !open && dialogs.closeEdit()}
        help={list.items.find((h) => h.id === dialogs.editing?.id) ?? null}
        onSaved={list.upsert}
      />
      <DeleteDialog
        list={list}
        target={dialogs.deleting}
        onClose={dialogs.closeDelete}
        path="/helps"
        title={t("platform.helps.deleteTitle", { title: dialogs.deleting?.title ?? "" })}
        successKey="platform.done"
      />
    </PlatformTab>
  );
}
