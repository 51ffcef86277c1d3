import { Fragment, useState } from "react";
import { useTranslation } from "react-i18next";
import { api } from "../lib/api.ts";
import type { QueueRef } from "../../contract/types.ts";
import { Field, WholeNumberField } from "../lib/ui/Field.tsx";
import { FormDialog } from "../lib/list/FormDialog.tsx";
import { type RecordDialogProps, useRecordForm } from "../lib/list/record_form.ts";
import { SelectField } from "../lib/ui/Select.tsx";
import type { ConnectionOption, UserRow } from "../../contract/people_types.ts";
import { email, length, LIMITS, wholeNumber } from "../../contract/validation.ts";
import { normaliseTime, TIME_OF_DAY } from "../../contract/working_hours.ts";

const NO_CONNECTION = "none";

/** Empty, or a time of day (typed loosely: "8" is 08:00). */
const timeOfDay = (value: string) =>
  value.trim() === "" || TIME_OF_DAY.test(normaliseTime(value)) ? null : "users.invalidTime";

/**
 * Add or edit a user (seeds/000 sections 2 'Users', 5 'User form', 6): name 2..50, email valid,
 * password 5..50 (on edit optional: empty keeps the current one). Profile, queues, default
 * connection and allTicket are editable only by admins (user-modal:editProfile/editQueues).
 */
export function UserDialog(
  { canAdmin, ...dialog }: RecordDialogProps<UserRow> & { canAdmin: boolean },
) {
  const { t } = useTranslation();
  const [queues, setQueues] = useState<QueueRef[]>([]);
  const [connections, setConnections] = useState<ConnectionOption[]>([]);
  const form = useRecordForm(dialog, {
    path: "/users",
    empty: {
      name: "",
      email: "",
      password: "",
      profile: "user",
      queueIds: [] as number[],
      whatsappId: NO_CONNECTION,
      allTicket: "disable",
      maxOpenTickets: "",
      supervisedQueueIds: [] as number[],
      startWork: "",
      endWork: "",
    },
    values: (u) => ({
      queueIds: u.queues.map((q) => q.id),
      maxOpenTickets: u.maxOpenTickets?.toString() ?? "",
      supervisedQueueIds: u.supervisedQueueIds ?? [],
      startWork: u.startWork ?? "",
      endWork: u.endWork ?? "",
    }),
    onOpen: () => {
      if (!canAdmin) return;
      api.get<QueueRef[]>("/queue").then(setQueues).catch(() => {});
      api.get<ConnectionOption[]>("/whatsapp", { query: { session: 0 } }).then(setConnections)
        .catch(() => {});
    },
    rules: {
      name: length(LIMITS.name),
      email: email(true),
      password: length(LIMITS.password, dialog.id === null),
      maxOpenTickets: wholeNumber(LIMITS.maxOpenTickets),
      startWork: timeOfDay,
      endWork: timeOfDay,
    },
    body: (
      {
        name,
        email: mail,
        password,
        profile,
        queueIds,
        whatsappId,
        allTicket,
        maxOpenTickets,
        supervisedQueueIds,
        startWork,
        endWork,
      },
    ) => ({
      name: name.trim(),
      email: mail.trim(),
      ...(password ? { password } : {}),
      ...(canAdmin
        ? {
          profile,
          queueIds,
          whatsappId: whatsappId === NO_CONNECTION ? null : Number(whatsappId),
          allTicket,
          maxOpenTickets: maxOpenTickets.trim() === "" ? null : Number(maxOpenTickets),
          supervisedQueueIds: supervisedQueueIds.filter((q) => queueIds.includes(q)),
          startWork: startWork.trim() === "" ? null : normaliseTime(startWork),
          endWork: endWork.trim() === "" ? null : normaliseTime(endWork),
        }
        : {}),
    }),
    successKey: "users.saved",
  });
  const { queueIds, supervisedQueueIds } = form.values;
  // Others than admins see their own queues and connection only.
  const mine = form.record;
  const queueChoices = canAdmin ? queues : mine?.queues ?? [];
  const connectionChoices = canAdmin ? connections : mine?.whatsapp ? [mine.whatsapp] : [];
  const toggleQueue = (id: number) =>
    form.set(
      "queueIds",
      queueIds.includes(id) ? queueIds.filter((q) => q !== id) : [...queueIds, id],
    );
  const toggleSupervised = (id: number) =>
    form.set(
      "supervisedQueueIds",
      supervisedQueueIds.includes(id)
        ? supervisedQueueIds.filter((q) => q !== id)
        : [...supervisedQueueIds, id],
    );

  return (
    <FormDialog form={form} width={580} texts="users" id="user">
      <div className="row">
        <Field label={t("users.name")} {...form.field("name")} autoFocus />
        <Field
          label={t("users.password")}
          type="password"
          autoComplete="new-password"
          {...form.field("password")}
          hint={dialog.id === null ? undefined : t("users.passwordHint")}
        />
      </div>
      <div className="row">
        <Field
          label={t("users.email")}
          type="email"
          autoComplete="off"
          {...form.field("email")}
        />
        <SelectField
          label={t("users.profile")}
          {...form.select("profile")}
          disabled={!canAdmin}
          options={[
            { value: "admin", label: t("users.profiles.admin") },
            { value: "user", label: t("users.profiles.user") },
          ]}
        />
      </div>
      <div className="field" role="group" aria-labelledby="user-queues-label">
        <label id="user-queues-label">{t("users.queues")}</label>
        <div className="people-chips" data-testid="user-queues">
          {queueChoices.length === 0
            ? <span className="field-hint">{t("users.noQueues")}</span>
            : queueChoices.map((q) => {
              const checked = queueIds.includes(q.id);
              const supervised = supervisedQueueIds.includes(q.id);
              return (
                <Fragment key={q.id}>
                  <label className="people-chip" data-checked={checked}>
                    <input
                      type="checkbox"
                      checked={checked}
                      disabled={!canAdmin}
                      onChange={() => toggleQueue(q.id)}
                    />
                    <span className="swatch" style={{ background: q.color }} />
                    {q.name}
                  </label>
                  {/* Issue 26: supervising is a mark on a queue the user is in (admins set it). */}
                  {canAdmin && checked
                    ? (
                      <label
                        className="people-chip"
                        data-checked={supervised}
                        title={t("users.supervisorHint")}
                      >
                        <input
                          type="checkbox"
                          checked={supervised}
                          onChange={() => toggleSupervised(q.id)}
                          data-testid={`user-supervisor-${q.id}`}
                        />
                        {t("users.supervisorOf", { queue: q.name })}
                      </label>
                    )
                    : null}
                </Fragment>
              );
            })}
        </div>
        {form.errors.queueIds ? <span className="field-error">{form.errors.queueIds}</span> : null}
      </div>
      <div className="row">
        <SelectField
          label={t("users.whatsapp")}
          {...form.select("whatsappId")}
          disabled={!canAdmin}
          options={[
            { value: NO_CONNECTION, label: t("users.noWhatsapp") },
            ...connectionChoices.map((c) => ({ value: String(c.id), label: c.name })),
          ]}
        />
        <SelectField
          label={t("users.allTicket")}
          {...form.select("allTicket")}
          disabled={!canAdmin}
          options={[
            { value: "enable", label: t("users.allTicketEnable") },
            { value: "disable", label: t("users.allTicketDisable") },
          ]}
        />
      </div>
      <WholeNumberField
        label={t("users.maxOpenTickets")}
        limit={LIMITS.maxOpenTickets}
        disabled={!canAdmin}
        {...form.field("maxOpenTickets")}
        hint={t("users.maxOpenTicketsHint")}
      />
      <div className="row">
        <Field
          label={t("users.startWork")}
          placeholder="08:00"
          inputMode="numeric"
          disabled={!canAdmin}
          {...form.field("startWork")}
          hint={t("users.workHoursHint")}
        />
        <Field
          label={t("users.endWork")}
          placeholder="18:00"
          inputMode="numeric"
          disabled={!canAdmin}
          {...form.field("endWork")}
        />
      </div>
    </FormDialog>
  );
}
