import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { FormDialog, useFormSubmit } from "../lib/list/FormDialog.tsx";
import { type HelpView, youtubeId } from "../../contract/platform_types.ts";
import { Field } from "../lib/ui/Field.tsx";
import { TextAreaField } from "../lib/ui/TextArea.tsx";
import { check, length } from "../../contract/validation.ts";
import { savePlatformRecord } from "./platform_form.ts";

/** The server's limits of a help (routes/api/helps.ts). */
const TITLE = { min: 2, max: 100 };

/**
 * Add or edit a help video: title, description and the video, given as its YouTube id or a
 * pasted YouTube address (the id is taken from it, here and on the server).
 */
export function HelpDialog(
  { open, onOpenChange, help, onSaved }: {
    open: boolean;
    onOpenChange: (open: boolean) => void;
    help: HelpView | null;
    onSaved: (help: HelpView) => void;
  },
) {
  const { t } = useTranslation();
  const [title, setTitle] = useState("");
  const [description, setDescription] = useState("");
  const [video, setVideo] = useState("");
  const form = useFormSubmit<HelpView>({
    admin: true,
    validate: () =>
      check({ title, video }, {
        title: length(TITLE),
        video: (v) => (v.trim() === "" || youtubeId(v) ? null : "platform.helps.invalidVideo"),
      }),
    send: () =>
      savePlatformRecord<HelpView>("/helps", help?.id ?? null, {
        title: title.trim(),
        description: description.trim(),
        video: video.trim() === "" ? "" : youtubeId(video) ?? video.trim(),
      }, t("platform.helps.saveFailed")),
    successKey: "platform.done",
    onDone: (saved) => {
      onSaved(saved);
      onOpenChange(false);
    },
  });

  useEffect(() => {
    if (!open) return;
    form.setErrors({});
    setTitle(help?.title ?? "");
    setDescription(help?.description ?? "");
    setVideo(help?.video ?? "");
  }, [open, help?.id]);

  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      title={help === null ? t("platform.helps.addTitle") : t("platform.helps.editTitle")}
      formId="help-form"
      form={form}
      submitLabel={help === null ? t("common.add") : t("common.save")}
      submitTestId="help-submit"
    >
      <Field
        label={t("platform.helps.titleField")}
        {...form.bind("title", title, setTitle)}
        autoFocus
      />
      <TextAreaField
        label={t("platform.helps.description")}
        rows={3}
        {...form.bind("description", description, setDescription)}
      />
      <Field
        label={t("platform.helps.video")}
        hint={t("platform.helps.videoHint")}
        {...form.bind("video", video, setVideo)}
      />
    </FormDialog>
  );
}
