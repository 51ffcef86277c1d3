import { useTranslation } from "react-i18next";
import type { PageGuard } from "./lib/shell/AppShell.tsx";
import { ListPage, type ListSpec, RecordList, useRecordPage } from "./lib/list/RecordPage.tsx";
import { RowActions } from "./lib/list/ResourceList.tsx";
import type { AnnouncementView } from "../contract/team_types.ts";
import { whenOpen } from "./lib/ui/deferred.tsx";
import { can } from "./lib/permissions.ts";
import { useCompanyClock } from "./lib/clock.ts";
import { PriorityBadge } from "./announcements/PriorityBadge.tsx";

const AnnouncementDialog = whenOpen(() =>
  import("./announcements/AnnouncementDialog.tsx").then((m) => m.AnnouncementDialog)
);

export type AnnouncementsPageProps = Record<string, never>;

/** seeds/002 section 6: super users only; others see the message and go to / after 1 s. */
const SUPER_ONLY: PageGuard = {
  allow: (user) => can(user, "announcement:manage"),
  message: "errors.noPermissionPage",
  redirectTo: "/",
};

/** /announcements (seeds/002 section 2.6): the searchable table, infinite scroll, the dialog. */
export default function AnnouncementsPage(_props: AnnouncementsPageProps) {
  return (
    <ListPage title="announcements.title" add="announcements.add" guard={SUPER_ONLY}>
      <Announcements />
    </ListPage>
  );
}

/** GET /api/announcements?all=true pages (inactive ones too), live on company-<id>-announcement. */
const ANNOUNCEMENTS: ListSpec<AnnouncementView> = {
  path: "/announcements",
  records: "records",
  channel: "announcement" as const,
  params: { all: "true" },
  testId: "announcements",
  search: "announcements.search",
  empty: "announcements.empty",
  head: [
    "announcements.titleField",
    "announcements.priority",
    ["announcements.mediaName", "col-hide-sm"],
    "announcements.status",
    ["announcements.createdAt", "col-hide-sm"],
  ],
  actions: "users.actions",
  remove: { title: "announcements.deleteTitle", done: "announcements.deleted" },
};

function Announcements() {
  const { t } = useTranslation();
  const page = useRecordPage(ANNOUNCEMENTS);
  const when = useCompanyClock().show;
  return (
    <RecordList page={page} dialog={<AnnouncementDialog {...page.form} />}>
      {page.list.items.map((a) => (
        <tr key={a.id} data-testid="announcement-row">
          <td className="people-name">{a.title}</td>
          <td>
            <PriorityBadge priority={a.priority} />
          </td>
          <td className="col-hide-sm">{a.mediaName ? t("announcements.hasImage") : "-"}</td>
          <td>{a.status ? t("announcements.active") : t("announcements.inactive")}</td>
          <td className="col-hide-sm">{when(a.createdAt)}</td>
          <RowActions {...page.actions(a)} />
        </tr>
      ))}
    </RecordList>
  );
}
