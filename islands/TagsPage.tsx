import { useTranslation } from "react-i18next";
import { useUser } from "./lib/session.ts";
import { can } from "./lib/permissions.ts";
import { ListPage, type ListSpec, RecordList, useRecordPage } from "./lib/list/RecordPage.tsx";
import { RowActions } from "./lib/list/ResourceList.tsx";
import { byName } from "./lib/list/list_controller.ts";
import { type TagView, textOn } from "../contract/tag_types.ts";
import { whenOpen } from "./lib/ui/deferred.tsx";

const TagDialog = whenOpen(() => import("./tags/TagDialog.tsx").then((m) => m.TagDialog));

export type TagsPageProps = Record<string, never>;

/** /tags (seeds/001 section 2 'Tags list'): chips with colour and ticket count, search, dialog. */
export default function TagsPage(_props: TagsPageProps) {
  return (
    <ListPage title="tags.title" add="tags.add">
      <Tags />
    </ListPage>
  );
}

/** GET /api/tags pages, live on company-<id>-tag. */
const TAGS: ListSpec<TagView> = {
  path: "/tags",
  records: "tags",
  channel: "tag",
  sort: byName,
  testId: "tags",
  search: "tags.search",
  empty: "tags.empty",
  emptyHint: "tags.emptyHint",
  head: ["tags.name", "tags.tickets"],
  actions: "tags.actions",
  remove: { title: "tags.deleteTitle", done: "tags.deleted" },
};

function Tags() {
  const { t } = useTranslation();
  const canKanban = can(useUser(), "tag:kanban");
  const page = useRecordPage(TAGS);
  return (
    <RecordList page={page} dialog={<TagDialog {...page.form} canKanban={canKanban} />}>
      {page.list.items.map((tag) => (
        <tr key={tag.id} data-testid="tag-row" data-tag-id={tag.id}>
          <td>
            <span className="tag-chip" style={{ background: tag.color, color: textOn(tag.color) }}>
              {tag.name}
            </span>
            {tag.kanban ? <span className="tag-lane">{t("tags.kanban")}</span> : null}
          </td>
          <td data-testid="tag-count">{tag.ticketsCount ?? 0}</td>
          <RowActions {...page.actions(tag)} />
        </tr>
      ))}
    </RecordList>
  );
}
