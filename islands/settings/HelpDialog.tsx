import { useTranslation } from "react-i18next";
import { FormDialog } from "../lib/list/FormDialog.tsx";
import { type RecordDialogProps, useRecordForm } from "../lib/list/record_form.ts";
import { type HelpView, youtubeId } from "../../contract/platform_types.ts";
import { Field } from "../lib/ui/Field.tsx";
import { TextAreaField } from "../lib/ui/TextArea.tsx";
import { length } from "../../contract/validation.ts";
import { savePlatformRecord } from "./platform_form.ts";

/** The server's limits of a help (routes/api/helps.ts). */
const TITLE = { min: 2, max: 100 };

/**
 * Add or edit a help video: title, description and the video, given as its YouTube id or a
 * pasted YouTube address (the id is taken from it, here and on the server).
 */
export function HelpDialog(dialog: RecordDialogProps<HelpView>) {
  const { t } = useTranslation();
  const form = useRecordForm(dialog, {
    path: "/helps",
    empty: { title: "", description: "", video: "" },
    rules: {
      title: length(TITLE),
      video: (v) => (v.trim() === "" || youtubeId(v) ? null : "platform.helps.invalidVideo"),
    },
    body: ({ title, description, video }) => ({
      title: title.trim(),
      description: description.trim(),
      video: video.trim() === "" ? "" : youtubeId(video) ?? video.trim(),
    }),
    save: savePlatformRecord(t("platform.helps.saveFailed")),
    successKey: "platform.done",
    admin: true,
  });
  return (
    <FormDialog form={form} texts="platform.helps" id="help">
      <Field label={t("platform.helps.titleField")} {...form.field("title")} autoFocus />
      <TextAreaField
        label={t("platform.helps.description")}
        rows={3}
        {...form.field("description")}
      />
      <Field
        label={t("platform.helps.video")}
        hint={t("platform.helps.videoHint")}
        {...form.field("video")}
      />
    </FormDialog>
  );
}
