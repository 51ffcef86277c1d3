import { useTranslation } from "react-i18next";
import { FormDialog } from "../list/FormDialog.tsx";
import { type RecordDialogProps, useRecordForm } from "../list/record_form.ts";
import { LIMITS } from "../../../contract/validation.ts";
import type { ScheduleView } from "../../../contract/schedule_types.ts";
import { AttachmentField } from "../ui/AttachmentField.tsx";
import { Field } from "../ui/Field.tsx";
import { SearchPick } from "../ui/SearchPick.tsx";
import { TextAreaField } from "../ui/TextArea.tsx";
import { VariableList } from "../ui/VariableList.tsx";
import { useCompanyClock } from "../clock.ts";
import { parseWallClock } from "../../../contract/time_zone.ts";
import { icon } from "../ui/icon.tsx";

const ImagePlus = icon("image-plus");

/** seeds/001 section 9: a new schedule is for an hour from now. */
export const DEFAULT_DELAY_MS = 3_600_000;

/** seeds/001 section 5: the attachment of a schedule is a png, jpg or jpeg picture. */
const ACCEPT = ".png,.jpg,.jpeg,image/png,image/jpeg";
const PICTURE = /\.(png|jpe?g)$/i;

export type ScheduleContact = { id: number; name: string; number?: string };

type Values = { body: string; contact: ScheduleContact | null; sendAt: string };

/** seeds/001 section 5: 'Mensagem muito curta', the contact and the time 'Obrigatório'. */
function scheduleProblems({ body, contact, sendAt }: Values): Record<string, string> {
  const found: Record<string, string> = {};
  if (body.trim().length < LIMITS.scheduleBody.min) found.body = "schedules.tooShort";
  if (!contact) found.contactId = "schedules.required";
  if (!parseWallClock(sendAt)) found.sendAt = "schedules.required";
  return found;
}

/**
 * The schedule dialog of /schedules and of a ticket (seeds/001 sections 2 'Schedules', 4, 5):
 * body of at least 5 characters ('Mensagem muito curta'), the contact (fixed when opened from a
 * ticket or with ?contactId, else searched), the send time ('Obrigatório'; an hour from now for
 * a new one), a png/jpg/jpeg picture uploaded once the schedule exists. A sent schedule opens
 * read-only, without the save button.
 */
export function ScheduleDialog(
  { contact: fixedContact, ticketId = null, ...dialog }: RecordDialogProps<ScheduleView> & {
    /** The contact it is for, when the caller decides it. */
    contact: ScheduleContact | null;
    ticketId?: number | null;
  },
) {
  const { t } = useTranslation();
  // Typed and shown on the company's clock, whatever the browser's zone (issue 24 item 6).
  const clock = useCompanyClock();
  const form = useRecordForm(dialog, {
    path: "/schedules",
    empty: {
      body: "",
      contact: fixedContact,
      sendAt: clock.input(new Date(Date.now() + DEFAULT_DELAY_MS)),
    } as Values,
    values: (s) => ({
      contact: s.contact ?? { id: s.contactId, name: `#${s.contactId}` },
      sendAt: clock.input(s.sendAt),
    }),
    validate: scheduleProblems,
    body: ({ body, contact, sendAt }) => ({
      body: body.trim(),
      contactId: contact!.id,
      sendAt: clock.instant(sendAt),
      ...(ticketId !== null ? { ticketId } : {}),
    }),
    file: {
      stored: (s) => s.mediaName,
      check: (file) => (PICTURE.test(file.name) ? null : "schedules.fileType"),
    },
    successKey: dialog.id === null ? "schedules.created" : "schedules.saved",
  });
  const sent = form.record?.status === "ENVIADA";
  return (
    <FormDialog
      form={form}
      texts="schedules"
      description={fixedContact
        ? t("schedules.to", { name: fixedContact.name || fixedContact.number })
        : undefined}
      width={500}
      id="schedule"
      submitLabel={t(dialog.id === null ? "schedules.submit" : "common.save")}
      readOnly={sent}
      formClassName=""
    >
      {sent ? <p className="field-hint">{t("schedules.sentHint")}</p> : null}
      {fixedContact ? null : (
        <SearchPick<ScheduleContact>
          label={t("schedules.contact")}
          placeholder={t("schedules.contactPlaceholder")}
          path="/contacts"
          listKey="contacts"
          value={form.values.contact}
          onChange={(contact) => form.set("contact", contact)}
          describe={(c) => ({ title: c.name, sub: c.number })}
          testId="schedule-contact"
          error={form.errors.contactId}
        />
      )}
      <TextAreaField
        label={t("schedules.body")}
        className="sd-body"
        rows={4}
        readOnly={sent}
        {...form.field("body")}
        data-testid="schedule-body"
      />
      {sent ? null : <VariableList />}
      <Field
        label={t("schedules.sendAt")}
        type="datetime-local"
        readOnly={sent}
        {...form.field("sendAt")}
        data-testid="schedule-at"
      />
      <AttachmentField
        attachment={form.attachment}
        pickLabel={t("schedules.attach")}
        removeLabel={t("schedules.removeFile", { name: form.attachment.name ?? "" })}
        testId="schedule"
        accept={ACCEPT}
        icon={ImagePlus}
        readOnly={sent}
      />
    </FormDialog>
  );
}
