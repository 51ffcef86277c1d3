import { useEffect, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { useWeekCheck, WeeklyHoursEditor } from "../lib/hours/WeeklyHoursEditor.tsx";
import {
  type EditableDay,
  tidyWeek,
  toEntries,
  weekFrom,
  type WorkingHoursEntry,
} from "../../contract/working_hours.ts";
import { FormDialog } from "../lib/list/FormDialog.tsx";
import { useFormTab } from "../lib/list/FormTabs.tsx";
import { type RecordDialogProps, useRecordForm } from "../lib/list/record_form.ts";
import { AttachmentField } from "../lib/ui/AttachmentField.tsx";
import { Button } from "../lib/ui/Button.tsx";
import { Field, WholeNumberField } from "../lib/ui/Field.tsx";
import { Tabs } from "../lib/ui/Tabs.tsx";
import { TextAreaField } from "../lib/ui/TextArea.tsx";
import { VariableList } from "../lib/ui/VariableList.tsx";
import { QueueBots } from "./QueueBots.tsx";
import { ColorPicker } from "./ColorPicker.tsx";
import { OptionsTree } from "./OptionsTree.tsx";
import { queueProblems } from "./queue_form.ts";
import { DISTRIBUTIONS, type Queue, type QueueDistribution } from "../../contract/queue_types.ts";
import { check, LIMITS, wholeNumber } from "../../contract/validation.ts";
import { SelectField } from "../lib/ui/Select.tsx";
import { api } from "../lib/api.ts";
import { useSessionUser } from "../lib/session.ts";

const FORM_ID = "queue-form";

/** Message variables (seeds/001 section 3), the same in every language. */

const EMPTY = {
  name: "",
  color: "",
  greetingMessage: "",
  outOfHoursMessage: "",
  orderQueue: "",
  integrationId: null as number | null,
  promptId: null as number | null,
  week: weekFrom(null) as EditableDay[],
  distribution: "off" as QueueDistribution,
  firstResponseMinutes: "",
  resolutionMinutes: "",
  pauseWhenWaitingOnCustomer: false,
  offlineMinutes: "",
};

const minutesRule = wholeNumber(LIMITS.slaMinutes);
const offlineRule = wholeNumber(LIMITS.offlineMinutes, true);
const minutesOrNull = (text: string) => text.trim() === "" ? null : Number(text);

/**
 * The queue dialog (seeds/001 sections 2, 4 and 5): tab 'Dados da Fila' (name, colour from the
 * palette, greeting, out-of-hours message, order, attachment, and the chatbot options tree),
 * 'Distribuição e metas' and, when working hours are managed per queue, 'Horários de
 * Atendimento'. Every tab's Salvar saves the whole queue (issue 50: one click, whichever tab).
 */
export function QueueDialog(
  { queues, scheduleType, offlineMinutes, ...dialog }: RecordDialogProps<Queue> & {
    /** The company's queues (colours already taken). */
    queues: readonly Queue[];
    scheduleType: string;
    /** The company's `distributionOfflineMinutes` (every queue's; saved with the queue). */
    offlineMinutes: string;
  },
) {
  const { t } = useTranslation();
  const hoursEnabled = scheduleType === "queue";
  const form = useRecordForm(dialog, {
    path: "/queue",
    empty: { ...EMPTY, offlineMinutes },
    values: (q) => ({
      week: weekFrom(q.schedules),
      firstResponseMinutes: q.firstResponseMinutes?.toString() ?? "",
      resolutionMinutes: q.resolutionMinutes?.toString() ?? "",
    }),
    validate: (values) => ({
      ...queueProblems(values),
      ...check({
        firstResponseMinutes: values.firstResponseMinutes,
        resolutionMinutes: values.resolutionMinutes,
        offlineMinutes: values.offlineMinutes,
      }, {
        firstResponseMinutes: minutesRule,
        resolutionMinutes: minutesRule,
        offlineMinutes: offlineRule,
      }),
      ...(hoursEnabled ? hours.check() : {}),
    }),
    body: (
      { week, orderQueue, firstResponseMinutes, resolutionMinutes, offlineMinutes: _, ...values },
    ) => ({
      ...values,
      firstResponseMinutes: minutesOrNull(firstResponseMinutes),
      resolutionMinutes: minutesOrNull(resolutionMinutes),
      name: values.name.trim(),
      color: values.color.trim(),
      orderQueue: orderQueue.trim() === "" ? null : Number(orderQueue),
      // Hours are only edited (and sent) when they are managed per queue.
      ...(hoursEnabled ? { schedules: toEntries(tidyWeek(week)) } : {}),
    }),
    file: { stored: (q) => q.mediaName ?? null },
    // The company's setting shown on this tab (issue 50 item 17), saved when it changed.
    after: async (saved) => {
      const value = String(Number(form.values.offlineMinutes.trim()));
      if (value !== offlineMinutes) {
        await api.put("/settings/distributionOfflineMinutes", { value });
      }
      return saved;
    },
    codeFields: {
      ERR_QUEUE_COLOR_ALREADY_EXISTS: "color",
      ERR_DUPLICATED_NAME: ["name", "queues.errors.nameTaken"],
    },
    successKey: "queues.saved",
    admin: true,
  });
  const hours = useWeekCheck(form.values.week, (week) => form.set("week", week));
  const current = form.record;
  const tabs = [
    {
      value: "data",
      fields: ["name", "color", "orderQueue", "greetingMessage", "outOfHoursMessage"],
    },
    {
      value: "service",
      fields: [
        "distribution",
        "firstResponseMinutes",
        "resolutionMinutes",
        "pauseWhenWaitingOnCustomer",
        "offlineMinutes",
      ],
    },
    ...(hoursEnabled ? [{ value: "hours", fields: ["schedules"] }] : []),
  ];
  const [tab, setTab] = useFormTab(form.errors, tabs);

  const usedColors = useMemo(
    () =>
      new Map(
        queues.filter((q) => q.id !== current?.id).map((q) => [q.color.toUpperCase(), q.name]),
      ),
    [queues, current?.id],
  );

  const dataTab = (
    <>
      <form id={FORM_ID} onSubmit={form.onSubmit} noValidate className="queue-form">
        <div className="queue-form-grid">
          <Field
            label={t("queues.fields.name")}
            {...form.field("name")}
            maxLength={60}
            autoFocus
          />
          <ColorPicker
            label={t("queues.fields.color")}
            value={form.values.color}
            onChange={(value) => form.set("color", value)}
            error={form.errors.color}
            used={usedColors}
          />
          <Field
            label={t("queues.fields.orderQueue")}
            type="number"
            inputMode="numeric"
            min={0}
            max={9999}
            step={1}
            {...form.field("orderQueue")}
          />
        </div>
        <QueueBots
          integrationId={form.values.integrationId}
          promptId={form.values.promptId}
          onChange={form.set}
        />
        <TextAreaField
          label={t("queues.fields.greetingMessage")}
          {...form.field("greetingMessage")}
        />
        <TextAreaField
          label={t("queues.fields.outOfHoursMessage")}
          {...form.field("outOfHoursMessage")}
          hint={t("queues.fields.outOfHoursHint")}
        />
        <VariableList />
        <AttachmentField
          attachment={form.attachment}
          label={t("queues.media.label")}
          pickLabel={t("queues.media.attach")}
          removeLabel={t("queues.media.remove")}
          testId="queue-media"
        />
      </form>
      <OptionsTree
        queueId={current?.id ?? null}
        ensureQueue={async () => (await form.save())?.id ?? null}
      />
    </>
  );

  // Issue 26: who gets a ticket entering the queue, and its service-level targets.
  // Its own form under the same id: the tabs unmount the data tab's, and the footer's Save
  // submits the form of that id.
  const serviceTab = (
    <form id={FORM_ID} onSubmit={form.onSubmit} noValidate className="queue-form">
      <SelectField
        label={t("queues.fields.distribution")}
        {...form.select("distribution")}
        options={DISTRIBUTIONS.map((value) => ({
          value,
          label: t(`queues.distribution.${value}`),
        }))}
      />
      <p className="field-hint">{t("queues.distribution.hint")}</p>
      <div className="queue-form-grid">
        <WholeNumberField
          label={t("queues.fields.firstResponseMinutes")}
          limit={LIMITS.slaMinutes}
          {...form.field("firstResponseMinutes")}
          hint={t("queues.fields.minutesHint")}
        />
        <WholeNumberField
          label={t("queues.fields.resolutionMinutes")}
          limit={LIMITS.slaMinutes}
          {...form.field("resolutionMinutes")}
          hint={t("queues.fields.minutesHint")}
        />
      </div>
      <label className="queue-switch">
        <input
          type="checkbox"
          role="switch"
          {...form.checkbox("pauseWhenWaitingOnCustomer")}
          data-testid="queue-pause-waiting"
        />
        <span>{t("queues.fields.pauseWhenWaitingOnCustomer")}</span>
      </label>
      <p className="field-hint">{t("queues.fields.pauseHint")}</p>
      <WholeNumberField
        label={t("queues.fields.offlineMinutes")}
        limit={LIMITS.offlineMinutes}
        {...form.field("offlineMinutes")}
        hint={t("queues.fields.offlineHint")}
        data-testid="queue-offline-minutes"
      />
      <CountedHours
        scheduleType={scheduleType}
        week={form.values.week}
        onEdit={() => setTab("hours")}
      />
    </form>
  );

  return (
    <FormDialog
      form={form}
      width={760}
      texts="queues"
      id="queue"
      submitLabel={t("common.save")}
      submitTestId="queue-save"
      bare
    >
      <Tabs
        value={tab}
        onValueChange={setTab}
        label={t("queues.dialogTabs")}
        tabs={[
          { value: "data", label: t("queues.tabs.data"), content: dataTab },
          { value: "service", label: t("queues.tabs.service"), content: serviceTab },
          ...(hoursEnabled
            ? [{
              value: "hours",
              label: t("queues.tabs.hours"),
              content: (
                <form id={FORM_ID} onSubmit={form.onSubmit} noValidate className="queue-form">
                  <WeeklyHoursEditor {...hours.editor} />
                </form>
              ),
            }]
            : []),
        ]}
      />
    </FormDialog>
  );
}

/**
 * Beside the targets, the hours they and distribution count (issue 50): the queue's week when
 * hours are managed per queue, the company's week when per company (read from the company, as
 * the settings' Horarios tab does), around the clock when off.
 */
function CountedHours(
  { scheduleType, week, onEdit }: {
    scheduleType: string;
    week: readonly EditableDay[];
    onEdit: () => void;
  },
) {
  const { t } = useTranslation();
  const companyId = useSessionUser()?.companyId ?? null;
  const [companyWeek, setCompanyWeek] = useState<EditableDay[] | null>(null);
  useEffect(() => {
    if (scheduleType !== "company" || companyId === null) return;
    let live = true;
    api.get<{ schedules: WorkingHoursEntry[] }>(`/companies/${companyId}`, { quiet: true })
      .then((company) => live && setCompanyWeek(weekFrom(company.schedules)))
      .catch(() => {});
    return () => {
      live = false;
    };
  }, [scheduleType, companyId]);
  if (scheduleType === "queue") {
    return (
      <section className="queue-hours-note" data-testid="queue-hours-note">
        <p>{t("queues.counted.queue")}</p>
        <WeekSummary week={week} />
        <Button variant="ghost" onClick={onEdit} data-testid="queue-hours-edit">
          {t("queues.counted.edit")}
        </Button>
      </section>
    );
  }
  if (scheduleType === "company") {
    return (
      <section className="queue-hours-note" data-testid="queue-hours-note">
        <p>{t("queues.counted.company")}</p>
        {companyWeek ? <WeekSummary week={companyWeek} /> : null}
      </section>
    );
  }
  return (
    <p className="queue-hours-note" data-testid="queue-hours-note">
      {t("queues.counted.always")}
    </p>
  );
}

/** A week's hours, a line per day. */
function WeekSummary({ week }: { week: readonly EditableDay[] }) {
  const { t } = useTranslation();
  return (
    <dl className="queue-hours-summary">
      {week.map((day) => (
        <div key={day.weekdayEn}>
          <dt>{t(`hours.weekdays.${day.weekdayEn}`)}</dt>
          <dd>{day.open ? `${day.startTime}–${day.endTime}` : t("hours.closed")}</dd>
        </div>
      ))}
    </dl>
  );
}
