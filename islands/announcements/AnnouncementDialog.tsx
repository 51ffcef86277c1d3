import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import Trash2 from "lucide-react/icons/trash-2";
import { api } from "../lib/api.ts";
import { FormDialog, saveRecord, useFormSubmit } from "../lib/list/FormDialog.tsx";
import {
  ANNOUNCEMENT_IMAGE_EXTENSIONS,
  type AnnouncementView,
  DEFAULT_ANNOUNCEMENT_PRIORITY,
} from "../../contract/team_types.ts";
import { IconButton } from "../lib/ui/Button.tsx";
import { Field } from "../lib/ui/Field.tsx";
import { Select } from "../lib/ui/Select.tsx";
import { TextAreaField } from "../lib/ui/TextArea.tsx";
import { check, length, type Limit, LIMITS } from "../../contract/validation.ts";

/** 'Obrigatório' (seeds/002 section 5) instead of the people forms' 'Required'. */
const required = (limit: Limit) => (value: string) => {
  const key = length(limit)(value);
  return key === "people.validation.required" ? "announcements.required" : key;
};

const isImage = (name: string) =>
  ANNOUNCEMENT_IMAGE_EXTENSIONS.some((ext) => name.toLowerCase().endsWith(ext));

/**
 * Add or edit an announcement (seeds/002 sections 2.6, 5): title and text required, priority 1-3
 * (default 3), status, an optional .png/.jpg/.jpeg image sent after the record is saved.
 */
export function AnnouncementDialog(
  { open, onOpenChange, announcementId, onSaved }: {
    open: boolean;
    onOpenChange: (open: boolean) => void;
    announcementId: number | null;
    onSaved: (saved: AnnouncementView) => void;
  },
) {
  const { t } = useTranslation();
  const [title, setTitle] = useState("");
  const [text, setText] = useState("");
  const [priority, setPriority] = useState(String(DEFAULT_ANNOUNCEMENT_PRIORITY));
  const [status, setStatus] = useState("true");
  const [file, setFile] = useState<File | null>(null);
  const [current, setCurrent] = useState<AnnouncementView | null>(null);
  const [loading, setLoading] = useState(false);

  const form = useFormSubmit<AnnouncementView>({
    validate: () => {
      const errors = check({ title, text }, {
        title: required(LIMITS.announcementTitle),
        text: required(LIMITS.announcementText),
      });
      if (file && !isImage(file.name)) errors.file = "announcements.imageType";
      return errors;
    },
    send: async () => {
      const body = {
        title: title.trim(),
        text: text.trim(),
        priority: Number(priority),
        status: status === "true",
      };
      let saved = await saveRecord<AnnouncementView>("/announcements", announcementId, body);
      if (file) {
        const data = new FormData();
        data.append("file", file);
        saved = await api.post<AnnouncementView>(`/announcements/${saved.id}/media-upload`, data, {
          quiet: true,
        });
      }
      return saved;
    },
    successKey: "announcements.saved",
    admin: true,
    onDone: (saved) => {
      onSaved(saved);
      onOpenChange(false);
    },
  });

  useEffect(() => {
    if (!open) return;
    form.setErrors({});
    setTitle("");
    setText("");
    setPriority(String(DEFAULT_ANNOUNCEMENT_PRIORITY));
    setStatus("true");
    setFile(null);
    setCurrent(null);
    if (announcementId === null) return;
    setLoading(true);
    api.get<AnnouncementView>(`/announcements/${announcementId}`).then((a) => {
      setCurrent(a);
      setTitle(a.title);
      setText(a.text);
      setPriority(String(a.priority));
      setStatus(String(a.status));
    }).catch(() => onOpenChange(false)).finally(() => setLoading(false));
  }, [open, announcementId]);

  const removeImage = async () => {
    if (!current) return;
    const saved = await api.delete<AnnouncementView>(`/announcements/${current.id}/media-upload`);
    setCurrent(saved);
    onSaved(saved);
  };

  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      width={560}
      title={announcementId === null ? t("announcements.addTitle") : t("announcements.editTitle")}
      formId="announcement-form"
      form={form}
      submitLabel={announcementId === null ? t("common.add") : t("common.save")}
      submitTestId="announcement-submit"
      disabled={loading}
    >
      <Field
        label={t("announcements.titleField")}
        {...form.bind("title", title, setTitle)}
        maxLength={LIMITS.announcementTitle.max}
        autoFocus
      />
      <TextAreaField
        label={t("announcements.text")}
        {...form.bind("text", text, setText)}
        maxLength={LIMITS.announcementText.max}
        rows={5}
      />
      <div className="row">
        <div className="field">
          <label>{t("announcements.priority")}</label>
          <Select
            label={t("announcements.priority")}
            value={priority}
            onValueChange={setPriority}
            options={[1, 2, 3].map((p) => ({
              value: String(p),
              label: t(`announcements.priorities.${p}`),
            }))}
          />
        </div>
        <div className="field">
          <label>{t("announcements.status")}</label>
          <Select
            label={t("announcements.status")}
            value={status}
            onValueChange={setStatus}
            options={[
              { value: "true", label: t("announcements.active") },
              { value: "false", label: t("announcements.inactive") },
            ]}
          />
        </div>
      </div>
      <div className="field">
        <label htmlFor="announcement-file">{t("announcements.image")}</label>
        {current?.mediaName && !file
          ? (
            <div className="announcement-image" data-testid="announcement-current-image">
              <span>{t("announcements.hasImage")}</span>
              <IconButton label={t("announcements.removeImage")} onClick={removeImage}>
                <Trash2 size={16} aria-hidden="true" />
              </IconButton>
            </div>
          )
          : null}
        <input
          id="announcement-file"
          type="file"
          accept={ANNOUNCEMENT_IMAGE_EXTENSIONS.join(",")}
          onChange={(e) => setFile(e.target.files?.[0] ?? null)}
          data-testid="announcement-file"
        />
        {form.errors.file ? <span className="field-error">{form.errors.file}</span> : null}
      </div>
    </FormDialog>
  );
}
