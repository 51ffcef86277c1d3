import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import ImagePlus from "lucide-react/icons/image-plus";
import X from "lucide-react/icons/x";
import { api } from "../api.ts";
import { FormDialog, saveRecord, useFormSubmit } from "../list/FormDialog.tsx";
import { LIMITS } from "../../../contract/validation.ts";
import type { ScheduleView } from "../../../contract/schedule_types.ts";
import { Button } from "../ui/Button.tsx";
import { SearchPick } from "../ui/SearchPick.tsx";

const pad = (n: number) => String(n).padStart(2, "0");

/** A Date as the value of <input type="datetime-local"> (local time, minutes). */
export function localInputValue(date: Date): string {
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${
    pad(date.getHours())
  }:${pad(date.getMinutes())}`;
}

/** seeds/001 section 9: a new schedule is for an hour from now. */
export const DEFAULT_DELAY_MS = 3_600_000;

/** seeds/001 section 5: the attachment of a schedule is a png, jpg or jpeg picture. */
const ACCEPT = ".png,.jpg,.jpeg,image/png,image/jpeg";
const PICTURE = /\.(png|jpe?g)$/i;

export type ScheduleContact = { id: number; name: string; number?: string };

type Picture = { kind: "stored"; name: string } | { kind: "new"; file: File } | null;

/**
 * The schedule dialog of /schedules and of a ticket (seeds/001 sections 2 'Schedules', 4, 5):
 * body of at least 5 characters ('Mensagem muito curta'), the contact (fixed when opened from a
 * ticket or with ?contactId, else searched), the send time ('Obrigatório'; an hour from now for
 * a new one), a png/jpg/jpeg picture uploaded once the schedule exists. A sent schedule opens
 * read-only, without the save button.
 */
export function ScheduleDialog(
  { open, onOpenChange, scheduleId, contact: fixedContact, ticketId = null, onSaved }: {
    open: boolean;
    onOpenChange: (open: boolean) => void;
    /** null: a new schedule. */
    scheduleId: number | null;
    /** The contact it is for, when the caller decides it. */
    contact: ScheduleContact | null;
    ticketId?: number | null;
    onSaved?: (schedule: ScheduleView) => void;
  },
) {
  const { t } = useTranslation();
  const [body, setBody] = useState("");
  const [contact, setContact] = useState<ScheduleContact | null>(fixedContact);
  const [sendAt, setSendAt] = useState("");
  const [picture, setPicture] = useState<Picture>(null);
  const [stored, setStored] = useState<ScheduleView | null>(null);
  const [loading, setLoading] = useState(false);
  // Saved in this dialog already (the upload after it may still fail): later submits update it.
  const [savedId, setSavedId] = useState<number | null>(null);
  const picker = useRef<HTMLInputElement>(null);
  const sent = stored?.status === "ENVIADA";

  const form = useFormSubmit<ScheduleView>({
    validate: () => {
      const found: Record<string, string> = {};
      if (body.trim().length < LIMITS.scheduleBody.min) found.body = "schedules.tooShort";
      if (!contact) found.contactId = "schedules.required";
      if (!sendAt || Number.isNaN(new Date(sendAt).getTime())) {
        found.sendAt = "schedules.required";
      }
      return found;
    },
    send: async () => {
      const id = scheduleId ?? savedId;
      let saved = await saveRecord<ScheduleView>("/schedules", id, {
        body: body.trim(),
        contactId: contact!.id,
        sendAt: new Date(sendAt).toISOString(),
        ...(ticketId !== null ? { ticketId } : {}),
      });
      setSavedId(saved.id);
      onSaved?.(saved);
      const media = `/schedules/${saved.id}/media-upload`;
      if (picture?.kind === "new") {
        const upload = new FormData();
        upload.append("file", picture.file, picture.file.name);
        saved = await api.post<ScheduleView>(media, upload, { quiet: true });
      } else if (picture === null && saved.mediaName) {
        saved = await api.delete<ScheduleView>(media, { quiet: true });
      }
      return saved;
    },
    successKey: scheduleId === null ? "schedules.created" : "schedules.saved",
    onDone: (saved) => {
      onSaved?.(saved);
      onOpenChange(false);
    },
  });
  const errors = form.errors;

  useEffect(() => {
    if (!open) return;
    form.setErrors({});
    setBody("");
    setContact(fixedContact);
    setSendAt(localInputValue(new Date(Date.now() + DEFAULT_DELAY_MS)));
    setPicture(null);
    setStored(null);
    setSavedId(null);
    if (scheduleId === null) return;
    setLoading(true);
    api.get<ScheduleView>(`/schedules/${scheduleId}`).then((s) => {
      setStored(s);
      setBody(s.body);
      setContact(s.contact ?? { id: s.contactId, name: `#${s.contactId}` });
      setSendAt(localInputValue(new Date(s.sendAt)));
      setPicture(s.mediaName ? { kind: "stored", name: s.mediaName } : null);
    }).catch(() => onOpenChange(false)).finally(() => setLoading(false));
  }, [open, scheduleId, fixedContact?.id]);

  const pictureName = picture === null
    ? null
    : picture.kind === "stored"
    ? picture.name
    : picture.file.name;

  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      title={scheduleId === null ? t("schedules.addTitle") : t("schedules.editTitle")}
      description={fixedContact
        ? t("schedules.to", { name: fixedContact.name || fixedContact.number })
        : undefined}
      width={500}
      formId="schedule-form"
      form={form}
      submitLabel={scheduleId === null ? t("schedules.submit") : t("common.save")}
      submitTestId="schedule-submit"
      disabled={loading}
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
          value={contact}
          onChange={setContact}
          describe={(c) => ({ title: c.name, sub: c.number })}
          testId="schedule-contact"
          error={errors.contactId}
        />
      )}
      <div className="field">
        <label htmlFor="schedule-body">{t("schedules.body")}</label>
        <textarea
          id="schedule-body"
          className="input sd-body"
          rows={4}
          value={body}
          readOnly={sent}
          aria-invalid={errors.body ? true : undefined}
          onChange={(e) => setBody(e.target.value)}
          data-testid="schedule-body"
        />
        {errors.body ? <span className="field-error">{errors.body}</span> : null}
      </div>
      <div className="field">
        <label htmlFor="schedule-at">{t("schedules.sendAt")}</label>
        <input
          id="schedule-at"
          className="input"
          type="datetime-local"
          value={sendAt}
          readOnly={sent}
          aria-invalid={errors.sendAt ? true : undefined}
          onChange={(e) => setSendAt(e.target.value)}
          data-testid="schedule-at"
        />
        {errors.sendAt ? <span className="field-error">{errors.sendAt}</span> : null}
      </div>
      <input
        ref={picker}
        type="file"
        accept={ACCEPT}
        hidden
        data-testid="schedule-file"
        onChange={(e) => {
          const chosen = e.target.files?.[0] ?? null;
          e.target.value = "";
          if (chosen && !PICTURE.test(chosen.name)) {
            form.setErrors({ ...errors, file: t("schedules.fileType") });
            return;
          }
          form.setErrors({ ...errors, file: "" });
          setPicture(chosen ? { kind: "new", file: chosen } : null);
        }}
      />
      {pictureName !== null
        ? (
          <span className="file-chip sd-file" data-testid="schedule-picture">
            <ImagePlus size={16} aria-hidden="true" />
            <span>{pictureName}</span>
            {sent ? null : (
              <button
                type="button"
                className="file-chip-x"
                aria-label={t("schedules.removeFile", { name: pictureName })}
                onClick={() => setPicture(null)}
              >
                <X size={14} aria-hidden="true" />
              </button>
            )}
          </span>
        )
        : sent
        ? null
        : (
          <Button variant="ghost" onClick={() => picker.current?.click()}>
            <ImagePlus size={16} aria-hidden="true" />
            {t("schedules.attach")}
          </Button>
        )}
      {errors.file ? <span className="field-error">{errors.file}</span> : null}
    </FormDialog>
  );
}
