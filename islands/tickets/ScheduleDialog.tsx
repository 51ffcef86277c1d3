import { useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import ImagePlus from "lucide-react/icons/image-plus";
import X from "lucide-react/icons/x";
import { api } from "../lib/api.ts";
import { Button } from "../lib/ui/Button.tsx";
import { FormDialog, useFormSubmit } from "../lib/list/FormDialog.tsx";
import { SCHEDULE_MIN_CHARS } from "./format.ts";
import type { Ticket } from "./types.ts";

const pad = (n: number) => String(n).padStart(2, "0");

/** A Date as the value of <input type="datetime-local"> (local time, minutes). */
export function localInputValue(date: Date): string {
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${
    pad(date.getHours())
  }:${pad(date.getMinutes())}`;
}

/** seeds/000 section 5: the attachment of a schedule accepts png, jpg and jpeg. */
const ACCEPT = ".png,.jpg,.jpeg,image/png,image/jpeg";

/**
 * Schedules a message to the ticket's contact (seeds/000 section 5): body of at least 5
 * characters ('Mensagem muito curta'), send time required ('Obrigatório'), by default an hour
 * from now; an optional png/jpg/jpeg picture uploaded after the schedule exists.
 */
export default function ScheduleDialog(
  { ticket, onClose }: { ticket: Ticket; onClose: () => void },
) {
  const { t } = useTranslation();
  const [body, setBody] = useState("");
  const [sendAt, setSendAt] = useState(() => localInputValue(new Date(Date.now() + 3_600_000)));
  const [file, setFile] = useState<File | null>(null);
  const picker = useRef<HTMLInputElement>(null);

  const form = useFormSubmit({
    validate: () => {
      const found: Record<string, string> = {};
      if (body.trim().length < SCHEDULE_MIN_CHARS) found.body = "tickets.schedule.tooShort";
      if (!sendAt || Number.isNaN(new Date(sendAt).getTime())) {
        found.sendAt = "tickets.schedule.required";
      }
      return found;
    },
    send: async () => {
      const created = await api.post<{ id: number }>("/schedules", {
        body: body.trim(),
        contactId: ticket.contactId,
        ticketId: ticket.id,
        sendAt: new Date(sendAt).toISOString(),
      }, { quiet: true });
      if (file) {
        const upload = new FormData();
        upload.append("file", file, file.name);
        await api.post(`/schedules/${created.id}/media-upload`, upload, { quiet: true });
      }
    },
    successKey: "tickets.schedule.saved",
    onDone: onClose,
  });
  const errors = form.errors;

  return (
    <FormDialog
      open
      onOpenChange={(open) => !open && onClose()}
      title={t("tickets.schedule.title")}
      description={t("tickets.schedule.to", {
        name: ticket.contact?.name || ticket.contact?.number,
      })}
      width={500}
      formId="schedule-form"
      form={form}
      submitLabel={t("tickets.schedule.submit")}
      submitTestId="schedule-submit"
      formClassName=""
    >
      <div className="field">
        <label htmlFor="schedule-body">{t("tickets.schedule.body")}</label>
        <textarea
          id="schedule-body"
          className="input sd-body"
          rows={4}
          value={body}
          aria-invalid={errors.body ? true : undefined}
          onChange={(e) => setBody(e.target.value)}
          data-testid="schedule-body"
        />
        {errors.body ? <span className="field-error">{errors.body}</span> : null}
      </div>
      <div className="field">
        <label htmlFor="schedule-at">{t("tickets.schedule.sendAt")}</label>
        <input
          id="schedule-at"
          className="input"
          type="datetime-local"
          value={sendAt}
          aria-invalid={errors.sendAt ? true : undefined}
          onChange={(e) => setSendAt(e.target.value)}
        />
        {errors.sendAt ? <span className="field-error">{errors.sendAt}</span> : null}
      </div>
      <input
        ref={picker}
        type="file"
        accept={ACCEPT}
        hidden
        onChange={(e) => {
          const chosen = e.target.files?.[0] ?? null;
          e.target.value = "";
          if (chosen && !/\.(png|jpe?g)$/i.test(chosen.name)) {
            form.setErrors({ ...errors, file: t("tickets.schedule.fileType") });
            return;
          }
          form.setErrors({ ...errors, file: "" });
          setFile(chosen);
        }}
      />
      {file
        ? (
          <div className="mi-file sd-file">
            <ImagePlus size={16} aria-hidden="true" />
            <span>{file.name}</span>
            <button
              type="button"
              className="mi-file-x"
              aria-label={t("tickets.input.removeFile", { name: file.name })}
              onClick={() => setFile(null)}
            >
              <X size={14} aria-hidden="true" />
            </button>
          </div>
        )
        : (
          <Button variant="ghost" onClick={() => picker.current?.click()}>
            <ImagePlus size={16} aria-hidden="true" />
            {t("tickets.schedule.attach")}
          </Button>
        )}
      {errors.file ? <span className="field-error">{errors.file}</span> : null}
    </FormDialog>
  );
}
