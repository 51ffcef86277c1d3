import { useTranslation } from "react-i18next";
import { AppShell, type PageGuard } from "./lib/shell/AppShell.tsx";
import { DeleteDialog } from "./lib/list/DeleteDialog.tsx";
import { useRecordDialogs, useResourceList, useWindowEvent } from "./lib/list/hooks.ts";
import { AddButton, ListSearch, ResourceTable, RowActions } from "./lib/list/ResourceList.tsx";
import type { AnnouncementView } from "../contract/team_types.ts";
import { whenOpen } from "./lib/ui/deferred.tsx";
import { PriorityBadge } from "./announcements/PriorityBadge.tsx";

const AnnouncementDialog = whenOpen(() =>
  import("./announcements/AnnouncementDialog.tsx").then((m) => m.AnnouncementDialog)
);

export type AnnouncementsPageProps = Record<string, never>;

const OPEN_ADD = "announcements:add";

/** seeds/002 section 6: super users only; others see the message and go to / after 1 s. */
const SUPER_ONLY: PageGuard = {
  allow: (user) => user.super,
  message: "errors.noPermissionPage",
  redirectTo: "/",
};

/** /announcements (seeds/002 section 2.6): the searchable table, infinite scroll, the dialog. */
export default function AnnouncementsPage(_props: AnnouncementsPageProps) {
  const { t } = useTranslation();
  return (
    <AppShell
      title={t("announcements.title")}
      guard={SUPER_ONLY}
      actions={<AddButton event={OPEN_ADD} label={t("announcements.add")} />}
    >
      <Announcements />
    </AppShell>
  );
}

/** GET /api/announcements?all=true pages (inactive ones too), live on company-<id>-announcement. */
const ANNOUNCEMENTS = {
  path: "/announcements",
  records: "records",
  channel: "announcement" as const,
  params: { all: "true" },
};

function Announcements() {
  const { t, i18n } = useTranslation();
  const list = useResourceList<AnnouncementView>(ANNOUNCEMENTS);
  const dialogs = useRecordDialogs<AnnouncementView>();
  useWindowEvent(OPEN_ADD, dialogs.add);
  const date = new Intl.DateTimeFormat(i18n.language, { dateStyle: "short", timeStyle: "short" });

  return (
    <div className="people-page">
      <ListSearch
        list={list}
        placeholder={t("announcements.search")}
        testId="announcements-search"
      />
      <ResourceTable
        list={list}
        testId="announcements-list"
        empty={t("announcements.empty")}
        head={
          <>
            <th>{t("announcements.titleField")}</th>
            <th>{t("announcements.priority")}</th>
            <th className="col-hide-sm">{t("announcements.mediaName")}</th>
            <th>{t("announcements.status")}</th>
            <th className="col-hide-sm">{t("announcements.createdAt")}</th>
            <th className="col-actions">{t("users.actions")}</th>
          </>
        }
      >
        {list.items.map((a) => (
          <tr key={a.id} data-testid="announcement-row">
            <td className="people-name">{a.title}</td>
            <td>
              <PriorityBadge priority={a.priority} />
            </td>
            <td className="col-hide-sm">{a.mediaName ? t("announcements.hasImage") : "-"}</td>
            <td>{a.status ? t("announcements.active") : t("announcements.inactive")}</td>
            <td className="col-hide-sm">{date.format(new Date(a.createdAt))}</td>
            <RowActions
              onEdit={() => dialogs.edit(a.id)}
              onDelete={() => dialogs.askDelete(a)}
            />
          </tr>
        ))}
      </ResourceTable>
      <AnnouncementDialog
        open={dialogs.editing !== null}
        onOpenChange={(open) => !open && dialogs.closeEdit()}
        announcementId={dialogs.editing?.id ?? null}
        onSaved={list.upsert}
      />
      <DeleteDialog
        list={list}
        target={dialogs.deleting}
        onClose={dialogs.closeDelete}
        path="/announcements"
        title={t("announcements.deleteTitle", { title: dialogs.deleting?.title ?? "" })}
        successKey="announcements.deleted"
      />
    </div>
  );
}
