import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import RotateCcw from "lucide-react/icons/rotate-ccw";
import { api } from "./lib/api.ts";
import { AppShell } from "./lib/shell/AppShell.tsx";
import { planGuard } from "./lib/permissions.ts";
import { DeleteDialog } from "./lib/list/DeleteDialog.tsx";
import { useRecordDialogs, useResourceList, useWindowEvent } from "./lib/list/hooks.ts";
import { AddButton, ListSearch, ResourceTable, RowActions } from "./lib/list/ResourceList.tsx";
import { formatScheduleDate, type ScheduleView, shortBody } from "../contract/schedule_types.ts";
import type { ScheduleContact } from "./lib/schedules/ScheduleDialog.tsx";
import { toast } from "./lib/toast.ts";
import { IconButton } from "./lib/ui/Button.tsx";
import { whenOpen } from "./lib/ui/deferred.tsx";
import "./lib/ui/form_styles.ts";

const ScheduleDialog = whenOpen(() =>
  import("./lib/schedules/ScheduleDialog.tsx").then((m) => m.ScheduleDialog)
);

export type SchedulesPageProps = {
  /** ?contactId=N (seeds/001 section 2): the create dialog opens for that contact. */
  contactId: number | null;
};

const OPEN_ADD = "schedules:add";

/** /schedules (seeds/001 section 2 'Schedules'). */
export default function SchedulesPage({ contactId }: SchedulesPageProps) {
  const { t } = useTranslation();
  return (
    <AppShell
      title={t("schedules.title")}
      guard={planGuard("useSchedules")}
      actions={<AddButton event={OPEN_ADD} label={t("schedules.add")} />}
    >
      <Schedules contactId={contactId} />
    </AppShell>
  );
}

/** Newest send time first, as the API pages them. */
const bySendAt = (a: ScheduleView, b: ScheduleView) =>
  b.sendAt.localeCompare(a.sendAt) || b.id - a.id;

/** GET /api/schedules pages, live on company-<id>-schedule. */
const SCHEDULES = {
  path: "/schedules",
  records: "schedules",
  channel: "schedule" as const,
  sort: bySendAt,
};

function Schedules({ contactId }: SchedulesPageProps) {
  const { t } = useTranslation();
  const list = useResourceList<ScheduleView>(SCHEDULES);
  const dialogs = useRecordDialogs<ScheduleView>();
  const [forContact, setForContact] = useState<ScheduleContact | null>(null);
  useWindowEvent(OPEN_ADD, () => {
    setForContact(null);
    dialogs.add();
  });

  // ?contactId=N: the contact is read (and checked to be the company's) before the dialog opens.
  useEffect(() => {
    if (contactId === null) return;
    api.get<ScheduleContact>(`/contacts/${contactId}`).then((c) => {
      setForContact({ id: c.id, name: c.name, number: c.number });
      dialogs.add();
    }).catch(() => {});
  }, [contactId]);

  const retry = async (s: ScheduleView) => {
    const saved = await api.post<ScheduleView>(`/schedules/${s.id}/retry`).catch(() => null);
    if (!saved) return;
    list.upsert(saved);
    toast.success({ key: "schedules.retried" });
  };

  return (
    <div className="people-page">
      <ListSearch list={list} placeholder={t("schedules.search")} testId="schedules-search" />
      <ResourceTable
        list={list}
        testId="schedules-list"
        empty={t("schedules.empty")}
        head={
          <>
            <th>{t("schedules.contact")}</th>
            <th>{t("schedules.body")}</th>
            <th>{t("schedules.sendAt")}</th>
            <th>{t("schedules.status")}</th>
            <th className="col-actions">{t("schedules.actions")}</th>
          </>
        }
      >
        {list.items.map((s) => (
          <tr key={s.id} data-testid="schedule-row" data-schedule-id={s.id} data-status={s.status}>
            <td className="people-name">{s.contact?.name ?? "-"}</td>
            <td title={s.body}>{shortBody(s.body)}</td>
            <td>{formatScheduleDate(s.sendAt)}</td>
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
            <RowActions
              onEdit={() => {
                setForContact(null);
                dialogs.edit(s.id);
              }}
              onDelete={() =>
                dialogs.askDelete(s)}
            >
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
      </ResourceTable>
      <ScheduleDialog
        open={dialogs.editing !== null}
        onOpenChange={(open) => !open && dialogs.closeEdit()}
        scheduleId={dialogs.editing?.id ?? null}
        contact={dialogs.editing?.id == null ? forContact : null}
        onSaved={list.upsert}
      />
      <DeleteDialog
        list={list}
        target={dialogs.deleting}
        onClose={dialogs.closeDelete}
        path="/schedules"
        title={t("schedules.deleteTitle")}
        successKey="schedules.deleted"
      />
    </div>
  );
}
