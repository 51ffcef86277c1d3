import { useState } from "react";
import { useTranslation } from "react-i18next";
import { api } from "../lib/api.ts";
import type { FileListOptionView, FileListView } from "../../contract/campaign_types.ts";
import { FormDialog } from "../lib/list/FormDialog.tsx";
import { type RecordDialogProps, useRecordForm } from "../lib/list/record_form.ts";
import { IconButton } from "../lib/ui/Button.tsx";
import { Field } from "../lib/ui/Field.tsx";
import { TextAreaField } from "../lib/ui/TextArea.tsx";
import { icon } from "../lib/ui/icon.tsx";

const Trash2 = icon("trash-2");

/** seeds/002 section 5 'File list': name at least 3 ('nome muito curto'), message required. */
export function fileListErrors(name: string, message: string): Record<string, string> {
  const errors: Record<string, string> = {};
  if (!name.trim()) errors.name = "files.required";
  else if (name.trim().length < 3) errors.name = "files.nameTooShort";
  if (!message.trim()) errors.message = "files.required";
  return errors;
}

/**
 * A file list: name, message and its option files (seeds/002 section 2.5). The list is saved
 * first, then the chosen files go to POST /files/uploadList/:id in one multipart request.
 */
export function FileListDialog(dialog: RecordDialogProps<FileListView>) {
  const { t } = useTranslation();
  const [files, setFiles] = useState<File[]>([]);
  const form = useRecordForm(dialog, {
    path: "/files",
    empty: { name: "", message: "", options: [] as FileListOptionView[] },
    validate: ({ name, message }) => fileListErrors(name, message),
    body: ({ name, message, options }) => ({
      name: name.trim(),
      message: message.trim(),
      ...(dialog.id === null ? {} : { options: options.map((o) => ({ id: o.id, name: o.name })) }),
    }),
    after: (saved) => {
      if (files.length === 0) return Promise.resolve(saved);
      const data = new FormData();
      for (const file of files) {
        data.append("files", file);
        data.append("name", file.name);
      }
      return api.post<FileListView>(`/files/uploadList/${saved.id}`, data, { quiet: true });
    },
    successKey: "files.saved",
  });
  const { options } = form.values;
  return (
    <FormDialog
      form={form}
      title={t(dialog.id === null ? "files.add" : "files.edit")}
      id="file-list"
      width={640}
      submitLabel={t("common.save")}
    >
      <Field label={t("files.name")} autoFocus {...form.field("name")} />
      <TextAreaField label={t("files.message")} {...form.field("message")} />
      <ul className="file-options">
        {options.map((o) => (
          <li key={o.id}>
            {o.name} <small>{o.mediaType}</small>
            <IconButton
              label={t("common.delete")}
              onClick={() => form.set("options", options.filter((x) => x.id !== o.id))}
            >
              <Trash2 size={16} aria-hidden="true" />
            </IconButton>
          </li>
        ))}
      </ul>
      <div className="field">
        <label htmlFor="file-list-files">{t("files.files")}</label>
        <input
          id="file-list-files"
          type="file"
          multiple
          className="input"
          onChange={(e) => setFiles([...(e.target.files ?? [])])}
        />
      </div>
    </FormDialog>
  );
}
