import { type FormEvent, useEffect, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import Paperclip from "lucide-react/icons/paperclip";
import X from "lucide-react/icons/x";
import { api } from "../lib/api.ts";
import { ApiError } from "../lib/errors.ts";
import { adminSubmitDelay } from "../lib/form_delay.ts";
import { WeeklyHoursEditor } from "../lib/hours/WeeklyHoursEditor.tsx";
import {
  type EditableDay,
  type HoursProblem,
  tidyWeek,
  toEntries,
  weekFrom,
  weekProblems,
} from "../../contract/working_hours.ts";
import { toast } from "../lib/toast.ts";
import { Button, IconButton } from "../lib/ui/Button.tsx";
import { Field } from "../lib/ui/Field.tsx";
import { QueueBots, type QueueBotsValue } from "./QueueBots.tsx";
import { Modal } from "../lib/ui/Modal.tsx";
import { Tabs } from "../lib/ui/Tabs.tsx";
import { TextAreaField } from "../lib/ui/TextArea.tsx";
import { ColorPicker } from "./ColorPicker.tsx";
import { OptionsTree } from "./OptionsTree.tsx";
import { queueProblems } from "./queue_form.ts";
import type { Queue } from "../../contract/queue_types.ts";

type Tab = "data" | "hours";

const FORM_ID = "queue-form";

/** Message variables (seeds/001 section 3), the same in every language. */
const TEMPLATE_VARIABLES = "{{firstName}}, {{name}}, {{ms}}, {{protocol}}, {{date}}, {{hour}}";

/**
 * The queue dialog (seeds/001 sections 2, 4 and 5): tab 'Dados da Fila' (name, colour from the
 * palette, greeting, out-of-hours message, order, attachment, and the chatbot options tree) and,
 * when working hours are managed per queue, 'Horários de Atendimento'. Saving from the hours tab
 * keeps the week locally and returns to the data tab; the data tab's save persists everything.
 */
export function QueueDialog(
  { open, onOpenChange, queue, queues, scheduleType, onSaved }: {
    open: boolean;
    onOpenChange: (open: boolean) => void;
    /** The queue to edit; null to create one. */
    queue: Queue | null;
    /** The company's queues (colours already taken). */
    queues: readonly Queue[];
    scheduleType: string;
    onSaved: (queue: Queue) => void;
  },
) {
  const { t } = useTranslation();
  const hoursEnabled = scheduleType === "queue";
  const [current, setCurrent] = useState<Queue | null>(queue);
  const [tab, setTab] = useState<Tab>("data");
  const [name, setName] = useState("");
  const [color, setColor] = useState("");
  const [greetingMessage, setGreeting] = useState("");
  const [outOfHoursMessage, setOutOfHours] = useState("");
  const [orderQueue, setOrderQueue] = useState("");
  const [bots, setBots] = useState<QueueBotsValue>({ integrationId: null, promptId: null });
  const [week, setWeek] = useState<EditableDay[]>(weekFrom(null));
  const [hoursProblems, setHoursProblems] = useState<Record<string, HoursProblem>>({});
  const [file, setFile] = useState<File | null>(null);
  const [dropMedia, setDropMedia] = useState(false);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    if (!open) return;
    setCurrent(queue);
    setTab("data");
    setName(queue?.name ?? "");
    setColor(queue?.color ?? "");
    setGreeting(queue?.greetingMessage ?? "");
    setOutOfHours(queue?.outOfHoursMessage ?? "");
    setOrderQueue(queue?.orderQueue === null || queue === null ? "" : String(queue.orderQueue));
    setBots({ integrationId: queue?.integrationId ?? null, promptId: queue?.promptId ?? null });
    setWeek(weekFrom(queue?.schedules));
    setHoursProblems({});
    setFile(null);
    setDropMedia(false);
    setErrors({});
  }, [open, queue?.id]);

  // The mode may change under an open dialog (another admin in the settings).
  useEffect(() => {
    if (!hoursEnabled && tab === "hours") setTab("data");
  }, [hoursEnabled, tab]);

  const usedColors = useMemo(
    () =>
      new Map(
        queues.filter((q) => q.id !== current?.id).map((q) => [q.color.toUpperCase(), q.name]),
      ),
    [queues, current?.id],
  );

  /** Persists the data tab (and the week kept locally); answers the saved queue or null. */
  const save = async (): Promise<Queue | null> => {
    const local = queueProblems({ name, color, orderQueue });
    setErrors(Object.fromEntries(Object.entries(local).map(([k, v]) => [k, t(v)])));
    const days = tidyWeek(week);
    setWeek(days);
    const weekIssues = hoursEnabled ? weekProblems(days) : {};
    setHoursProblems(weekIssues);
    if (Object.keys(local).length) {
      setTab("data");
      return null;
    }
    if (Object.keys(weekIssues).length) {
      setTab("hours");
      return null;
    }
    setSaving(true);
    try {
      await adminSubmitDelay();
      const body: Record<string, unknown> = {
        name: name.trim(),
        color: color.trim(),
        greetingMessage,
        outOfHoursMessage,
        orderQueue: orderQueue.trim() === "" ? null : Number(orderQueue),
        ...bots,
      };
      // Hours are only edited (and sent) when they are managed per queue.
      if (hoursEnabled) body.schedules = toEntries(days);
      let saved = current
        ? await api.put<Queue>(`/queue/${current.id}`, body, { quiet: true })
        : await api.post<Queue>("/queue", body, { quiet: true });
      setCurrent(saved);
      onSaved(saved);
      if (file) {
        const form = new FormData();
        form.append("file", file);
        saved = await api.post<Queue>(`/queue/${saved.id}/media-upload`, form);
      } else if (dropMedia && saved.mediaName) {
        saved = await api.delete<Queue>(`/queue/${saved.id}/media-upload`);
      }
      setFile(null);
      setDropMedia(false);
      setCurrent(saved);
      onSaved(saved);
      toast.success({ key: "queues.saved" });
      return saved;
    } catch (error) {
      if (!(error instanceof ApiError)) {
        toast.error(error);
      } else if (error.code === "ERR_QUEUE_COLOR_ALREADY_EXISTS") {
        // seeds/001 section 8: a translated toast; the field says it too.
        toast.error(error);
        setErrors({ color: t("errors.ERR_QUEUE_COLOR_ALREADY_EXISTS") });
      } else if (error.code === "ERR_DUPLICATED_NAME") {
        setErrors({ name: t("queues.errors.nameTaken") });
      } else if (Object.keys(error.fields).length) {
        const fields = Object.fromEntries(
          Object.entries(error.fields).map(([field, messages]) => [field, messages[0] ?? ""]),
        );
        setErrors(fields);
        if (
          !["name", "color", "orderQueue", "greetingMessage", "outOfHoursMessage"].some((f) =>
            fields[f]
          )
        ) toast.error(error);
      } else {
        toast.error(error);
      }
      return null;
    } finally {
      setSaving(false);
    }
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (saving) return;
    if (await save()) onOpenChange(false);
  };

  /** seeds/001 section 2: the hours tab's save is local until the data tab is saved. */
  const keepHours = () => {
    const days = tidyWeek(week);
    setWeek(days);
    const problems = weekProblems(days);
    setHoursProblems(problems);
    if (Object.keys(problems).length) return;
    toast.info({ key: "queues.hours.keptLocally" });
    setTab("data");
  };

  const currentMedia = file?.name ?? (dropMedia ? null : current?.mediaName ?? null);

  const dataTab = (
    <>
      <form id={FORM_ID} onSubmit={submit} noValidate className="queue-form">
        <div className="queue-form-grid">
          <Field
            label={t("queues.fields.name")}
            name="name"
            value={name}
            maxLength={60}
            autoFocus
            onChange={(e) => setName(e.target.value)}
            error={errors.name}
          />
          <ColorPicker
            label={t("queues.fields.color")}
            value={color}
            onChange={(value) => {
              setColor(value);
              setErrors((old) => ({ ...old, color: "" }));
            }}
            used={usedColors}
            error={errors.color}
          />
          <Field
            label={t("queues.fields.orderQueue")}
            name="orderQueue"
            type="number"
            inputMode="numeric"
            min={0}
            max={9999}
            step={1}
            value={orderQueue}
            onChange={(e) => setOrderQueue(e.target.value)}
            error={errors.orderQueue}
          />
        </div>
        <QueueBots open={open} value={bots} onChange={setBots} />
        <TextAreaField
          label={t("queues.fields.greetingMessage")}
          name="greetingMessage"
          value={greetingMessage}
          onChange={(e) => setGreeting(e.target.value)}
          error={errors.greetingMessage}
          hint={`${t("queues.fields.variables")}: ${TEMPLATE_VARIABLES}`}
        />
        <TextAreaField
          label={t("queues.fields.outOfHoursMessage")}
          name="outOfHoursMessage"
          value={outOfHoursMessage}
          onChange={(e) => setOutOfHours(e.target.value)}
          error={errors.outOfHoursMessage}
          hint={t("queues.fields.outOfHoursHint")}
        />
        <div className="attach queue-attach">
          <span className="attach-label">{t("queues.media.label")}</span>
          {currentMedia
            ? (
              <span className="attach-name" data-testid="queue-media">
                <Paperclip size={14} aria-hidden="true" />
                {currentMedia}
                <IconButton
                  label={t("queues.media.remove")}
                  className="attach-remove"
                  onClick={() => {
                    setFile(null);
                    setDropMedia(true);
                  }}
                >
                  <X size={14} aria-hidden="true" />
                </IconButton>
              </span>
            )
            : (
              <label className="btn btn-secondary attach-pick">
                <Paperclip size={16} aria-hidden="true" />
                {t("queues.media.attach")}
                <input
                  type="file"
                  name="media"
                  className="visually-hidden"
                  onChange={(e) => {
                    setFile(e.target.files?.[0] ?? null);
                    e.target.value = "";
                  }}
                />
              </label>
            )}
        </div>
      </form>
      <OptionsTree
        queueId={current?.id ?? null}
        ensureQueue={async () => (await save())?.id ?? null}
      />
    </>
  );

  return (
    <Modal
      open={open}
      onOpenChange={onOpenChange}
      width={760}
      title={current ? t("queues.editTitle") : t("queues.addTitle")}
      footer={
        <>
          <Button variant="ghost" onClick={() => onOpenChange(false)} disabled={saving}>
            {t("common.cancel")}
          </Button>
          {
            /* Distinct keys: React must not turn the hours button into the submit button during
              its own click (the browser would then submit the form at the end of that click). */
          }
          {tab === "data"
            ? (
              <Button
                key="save"
                variant="primary"
                type="submit"
                form={FORM_ID}
                loading={saving}
                data-testid="queue-save"
              >
                {t("common.save")}
              </Button>
            )
            : (
              <Button key="keep" variant="primary" onClick={keepHours} data-testid="hours-keep">
                {t("common.save")}
              </Button>
            )}
        </>
      }
    >
      <Tabs
        value={tab}
        onValueChange={(value) => setTab(value as Tab)}
        label={t("queues.dialogTabs")}
        tabs={[
          { value: "data", label: t("queues.tabs.data"), content: dataTab },
          ...(hoursEnabled
            ? [{
              value: "hours",
              label: t("queues.tabs.hours"),
              content: (
                <WeeklyHoursEditor
                  value={week}
                  onChange={(next) => {
                    setWeek(next);
                    if (Object.keys(hoursProblems).length) setHoursProblems(weekProblems(next));
                  }}
                  problems={hoursProblems}
                />
              ),
            }]
            : []),
        ]}
      />
    </Modal>
  );
}
