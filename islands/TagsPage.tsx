import { useTranslation } from "react-i18next";
import { AppShell } from "./lib/shell/AppShell.tsx";
import { isAdmin, useUser } from "./lib/session.ts";
import { DeleteDialog } from "./lib/list/DeleteDialog.tsx";
import { useRecordDialogs, useResourceList, useWindowEvent } from "./lib/list/hooks.ts";
import { AddButton, ListSearch, ResourceTable, RowActions } from "./lib/list/ResourceList.tsx";
import { byName } from "./lib/list/list_controller.ts";
import { type TagView, textOn } from "../contract/tag_types.ts";
import { whenOpen } from "./lib/ui/deferred.tsx";

const TagDialog = whenOpen(() => import("./tags/TagDialog.tsx").then((m) => m.TagDialog));

export type TagsPageProps = Record<string, never>;

const OPEN_ADD = "tags:add";

/** /tags (seeds/001 section 2 'Tags list'): chips with colour and ticket count, search, dialog. */
export default function TagsPage(_props: TagsPageProps) {
  const { t } = useTranslation();
  return (
    <AppShell
      title={t("tags.title")}
      actions={<AddButton event={OPEN_ADD} label={t("tags.add")} />}
    >
      <Tags />
    </AppShell>
  );
}

/** GET /api/tags pages, live on company-<id>-tag. */
const TAGS = { path: "/tags", records: "tags", channel: "tag" as const, sort: byName };

function Tags() {
  const { t } = useTranslation();
  const admin = isAdmin(useUser());
  const list = useResourceList<TagView>(TAGS);
  const dialogs = useRecordDialogs<TagView>();
  useWindowEvent(OPEN_ADD, dialogs.add);

  return (
    <div className="people-page">
      <ListSearch list={list} placeholder={t("tags.search")} testId="tags-search" />
      <ResourceTable
        list={list}
        testId="tags-list"
        empty={t("tags.empty")}
        head={
          <>
            <th>{t("tags.name")}</th>
            <th>{t("tags.tickets")}</th>
            <th className="col-actions">{t("tags.actions")}</th>
          </>
        }
      >
        {list.items.map((tag) => (
          <tr key={tag.id} data-testid="tag-row" data-tag-id={tag.id}>
            <td>
              <span
                className="tag-chip"
                style={{ background: tag.color, color: textOn(tag.color) }}
              >
                {tag.name}
              </span>
              {tag.kanban ? <span className="tag-lane">{t("tags.kanban")}</span> : null}
            </td>
            <td data-testid="tag-count">{tag.ticketsCount ?? 0}</td>
            <RowActions
              onEdit={() => dialogs.edit(tag.id)}
              onDelete={() => dialogs.askDelete(tag)}
            />
          </tr>
        ))}
      </ResourceTable>
      <TagDialog
        open={dialogs.editing !== null}
        onOpenChange={(open) => !open && dialogs.closeEdit()}
        tagId={dialogs.editing?.id ?? null}
        canKanban={admin}
        onSaved={list.upsert}
      />
      <DeleteDialog
        list={list}
        target={dialogs.deleting}
        onClose={dialogs.closeDelete}
        path="/tags"
        title={t("tags.deleteTitle", { name: dialogs.deleting?.name ?? "" })}
        successKey="tags.deleted"
      />
    </div>
  );
}
