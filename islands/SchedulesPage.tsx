import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { api } from "./lib/api.ts";
import { planGuard } from "./lib/permissions.ts";
import { ListPage, type ListSpec, RecordList, useRecordPage } from "./lib/list/RecordPage.tsx";
import { RowActions } from "./lib/list/ResourceList.tsx";
import { formatScheduleDate, type ScheduleView, shortBody } from "../contract/schedule_types.ts";
import type { ScheduleContact } from "./lib/schedules/ScheduleDialog.tsx";
import { toast } from "./lib/toast.ts";
import { IconButton } from "./lib/ui/Button.tsx";
import { whenOpen } from "./lib/ui/deferred.tsx";
import { useCompanyClock } from "./lib/clock.ts";
import "./lib/ui/form_styles.ts";
import { icon } from "./lib/ui/icon.tsx";

const RotateCcw = icon("rotate-ccw");

const ScheduleDialog = whenOpen(() =>
  import("./lib/schedules/ScheduleDialog.tsx").then((m) => m.ScheduleDialog)
);

export type SchedulesPageProps = {
  /** ?contactId=N (seeds/001 section 2): the create dialog opens for that contact. */
  contactId: number | null;
};

/** /schedules (seeds/001 section 2 'Schedules'). */
export default function SchedulesPage({ contactId }: SchedulesPageProps) {
  return (
    <ListPage title="schedules.title" add="schedules.add" guard={planGuard("useSchedules")}>
      <Schedules contactId={contactId} />
    </ListPage>
  );
}

/** GET /api/schedules pages, live on company-<id>-schedule; newest send time first. */
const SCHEDULES: ListSpec<ScheduleView> = {
  path: "/schedules",
  records: "schedules",
  channel: "schedule",
  sort: (a, b) => b.sendAt.localeCompare(a.sendAt) || b.id - a.id,
  testId: "schedules",
  search: "schedules.search",
  empty: "schedules.empty",
  emptyHint: "schedules.emptyHint",
  head: [
    "schedules.contact",
    ["schedules.body", "col-hide-sm"],
    "schedules.sendAt",
    "schedules.status",
  ],
  actions: "schedules.actions",
  remove: { title: "schedules.deleteTitle", done: "schedules.deleted" },
};

function Schedules({ contactId }: SchedulesPageProps) {
  const { t } = useTranslation();
  const [forContact, setForContact] = useState<ScheduleContact | null>(null);
  const page = useRecordPage(SCHEDULES, () => {
    setForContact(null);
    page.dialogs.add();
  });

  // ?contactId=N: the contact is read (and checked to be the company's) before the dialog opens.
  useEffect(() => {
    if (contactId === null) return;
    api.get<ScheduleContact>(`/contacts/${contactId}`).then((c) => {
      setForContact({ id: c.id, name: c.name, number: c.number });
      page.dialogs.add();
    }).catch(() => {});
  }, [contactId]);

  const retry = async (s: ScheduleView) => {
    const saved = await api.post<ScheduleView>(`/schedules/${s.id}/retry`).catch(() => null);
    if (!saved) return;
    page.list.upsert(saved);
    toast.success({ key: "schedules.retried" });
  };
  const edit = (s: ScheduleView) => () => {
    setForContact(null);
    page.dialogs.edit(s.id);
  };
  const zone = useCompanyClock().zone;
  const dialog = (
    <ScheduleDialog {...page.form} contact={page.form.id === null ? forContact : null} />
  );

  return (
    <RecordList page={page} dialog={dialog}>
      {page.list.items.map((s) => (
        <tr key={s.id} data-testid="schedule-row" data-schedule-id={s.id} data-status={s.status}>
          <td className="people-name">{s.contact?.name ?? "-"}</td>
          <td className="col-hide-sm" title={s.body}>{shortBody(s.body)}</td>
          <td>{formatScheduleDate(s.sendAt, zone)}</td>
          <td>
            <span className="sc-status" data-status={s.status} data-testid="schedule-status">
              {s.status === "ERRO"
                ? t("schedules.failed", {
                  reason: s.errorCode
                    ? t(`errors.${s.errorCode}`, { defaultValue: s.errorCode })
                    : t("errors.generic"),
                })
                : t(`schedules.statuses.${s.status}`, { defaultValue: s.status })}
            </span>
          </td>
          <RowActions {...page.actions(s)} onEdit={edit(s)}>
            {s.status === "ERRO"
              ? (
                <IconButton
                  label={t("schedules.retry")}
                  onClick={() => void retry(s)}
                >
                  <RotateCcw size={18} aria-hidden="true" />
                </IconButton>
              )
              : null}
          </RowActions>
        </tr>
      ))}
    </RecordList>
  );
}
