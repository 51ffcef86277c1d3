import { useTranslation } from "react-i18next";
import { FormDialog } from "../lib/list/FormDialog.tsx";
import { required } from "../lib/list/form_rules.ts";
import { type RecordDialogProps, useRecordForm } from "../lib/list/record_form.ts";
import {
  ANNOUNCEMENT_IMAGE_EXTENSIONS,
  type AnnouncementView,
  DEFAULT_ANNOUNCEMENT_PRIORITY,
} from "../../contract/team_types.ts";
import { AttachmentField } from "../lib/ui/AttachmentField.tsx";
import { Field } from "../lib/ui/Field.tsx";
import { SelectField } from "../lib/ui/Select.tsx";
import { TextAreaField } from "../lib/ui/TextArea.tsx";
import { LIMITS } from "../../contract/validation.ts";

/** 'Obrigatório' (seeds/002 section 5) instead of the people forms' 'Required'. */
const REQUIRED = required("announcements.required");

const isImage = (file: File) =>
  ANNOUNCEMENT_IMAGE_EXTENSIONS.some((ext) => file.name.toLowerCase().endsWith(ext));

/**
 * Add or edit an announcement (seeds/002 sections 2.6, 5): title and text required, priority 1-3
 * (default 3), status, an optional .png/.jpg/.jpeg image sent after the record is saved.
 */
export function AnnouncementDialog(dialog: RecordDialogProps<AnnouncementView>) {
  const { t } = useTranslation();
  const form = useRecordForm(dialog, {
    path: "/announcements",
    empty: { title: "", text: "", priority: String(DEFAULT_ANNOUNCEMENT_PRIORITY), status: "true" },
    rules: { title: REQUIRED, text: REQUIRED },
    body: (v) => ({
      title: v.title.trim(),
      text: v.text.trim(),
      priority: Number(v.priority),
      status: v.status === "true",
    }),
    file: {
      // The stored picture's name is a generated one: say that there is one.
      stored: (a) => (a.mediaName ? t("announcements.hasImage") : null),
      check: (file) => (isImage(file) ? null : "announcements.imageType"),
    },
    successKey: "announcements.saved",
    admin: true,
  });
  return (
    <FormDialog form={form} width={560} texts="announcements" id="announcement">
      <Field
        label={t("announcements.titleField")}
        {...form.field("title")}
        maxLength={LIMITS.announcementTitle.max}
        autoFocus
      />
      <TextAreaField
        label={t("announcements.text")}
        {...form.field("text")}
        maxLength={LIMITS.announcementText.max}
        rows={5}
      />
      <div className="row">
        <SelectField
          label={t("announcements.priority")}
          {...form.select("priority")}
          options={[1, 2, 3].map((p) => ({
            value: String(p),
            label: t(`announcements.priorities.${p}`),
          }))}
        />
        <SelectField
          label={t("announcements.status")}
          {...form.select("status")}
          options={[
            { value: "true", label: t("announcements.active") },
            { value: "false", label: t("announcements.inactive") },
          ]}
        />
      </div>
      <AttachmentField
        attachment={form.attachment}
        label={t("announcements.image")}
        removeLabel={t("announcements.removeImage")}
        testId="announcement"
        accept={ANNOUNCEMENT_IMAGE_EXTENSIONS.join(",")}
      />
    </FormDialog>
  );
}
