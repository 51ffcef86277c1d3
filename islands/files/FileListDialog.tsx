import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import Trash2 from "lucide-react/icons/trash-2";
import { api } from "../lib/api.ts";
import type { FileListOptionView, FileListView } from "../../contract/campaign_types.ts";
import { FormDialog, saveRecord, useFormSubmit } from "../lib/list/FormDialog.tsx";
import { IconButton } from "../lib/ui/Button.tsx";
import { Field } from "../lib/ui/Field.tsx";
import { TextAreaField } from "../lib/ui/TextArea.tsx";

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
export function FileListDialog(
  { open, onOpenChange, listId, onSaved }: {
    open: boolean;
    onOpenChange: (open: boolean) => void;
    listId: number | null;
    onSaved: (list: FileListView) => void;
  },
) {
  const { t } = useTranslation();
  const [name, setName] = useState("");
  const [message, setMessage] = useState("");
  const [options, setOptions] = useState<FileListOptionView[]>([]);
  const [files, setFiles] = useState<File[]>([]);
  const form = useFormSubmit({
    validate: () => fileListErrors(name, message),
    send: async () => {
      const body = {
        name: name.trim(),
        message: message.trim(),
        ...(listId === null ? {} : { options: options.map((o) => ({ id: o.id, name: o.name })) }),
      };
      let saved = await saveRecord<FileListView>("/files", listId, body);
      if (files.length > 0) {
        const data = new FormData();
        for (const file of files) {
          data.append("files", file);
          data.append("name", file.name);
        }
        saved = await api.post<FileListView>(`/files/uploadList/${saved.id}`, data, {
          quiet: true,
        });
      }
      return saved;
    },
    successKey: "files.saved",
    onDone: (saved) => {
      onSaved(saved);
      onOpenChange(false);
    },
  });
  useEffect(() => {
    if (!open) return;
    setName("");
    setMessage("");
    setOptions([]);
    setFiles([]);
    form.setErrors({});
    if (listId !== null) {
      api.get<FileListView>(`/files/${listId}`).then((l) => {
        setName(l.name);
        setMessage(l.message);
        setOptions(l.options);
      }).catch(() => {});
    }
  }, [open, listId]);
  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      title={listId === null ? t("files.add") : t("files.edit")}
      formId="file-list-form"
      form={form}
      width={640}
      submitLabel={t("common.save")}
    >
      <Field label={t("files.name")} autoFocus {...form.bind("name", name, setName)} />
      <TextAreaField label={t("files.message")} {...form.bind("message", message, setMessage)} />
      <ul className="file-options">
        {options.map((o) => (
          <li key={o.id}>
            {o.name} <small>{o.mediaType}</small>
            <IconButton
              label={t("common.delete")}
              onClick={() => setOptions(options.filter((x) => x.id !== o.id))}
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
