import { type FormEvent, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { api } from "../api.ts";
import {
  type FieldProps,
  type FormSubmit,
  type Problem,
  saveRecord,
  useFormSubmit,
} from "./form_submit.ts";
import type { Rule } from "../../../contract/validation.ts";
import {
  type Attachment,
  attachmentStep,
  checkValues,
  type CodeFields,
  valuesOf,
} from "./form_rules.ts";

/** The props of every record dialog a list page opens (useRecordPage gives them). */
export type RecordDialogProps<T> = {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The record to edit; null adds one. */
  id: number | null;
  /** The record itself where the page holds it and its route has no GET by id. */
  record?: T | null;
  onSaved?: (saved: T) => void;
};

/** A record's file, sent once the record is saved (its route: POST a file, DELETE removes it). */
export type FileOptions<T> = {
  /** The stored file's name of a record, null for none. */
  stored: (record: T) => string | null;
  /** The upload route; default `<path>/<id>/media-upload`. */
  path?: (saved: T) => string;
  /** Extra multipart fields sent with the file. */
  fields?: Record<string, string>;
  /** The name the file is shown and sent under. */
  rename?: (name: string) => string;
  /** A picked file's problem (an i18n key, shown under the field), checked when picked. */
  check?: (file: File) => string | null;
};

export type RecordFormOptions<V, T> = {
  /** The resource's route: GET/PUT `<path>/<id>`, POST `<path>`. */
  path: string;
  /** A new record's values; a stored record's fill the same keys (valuesOf). */
  empty: V;
  /** Values of a stored record that valuesOf does not take as they are. */
  values?: (record: T) => Partial<V>;
  /** Rules of the text fields (contract/validation.ts), checked before sending. */
  rules?: Rules<V> | ((values: V, record: T | null) => Rules<V>);
  /** More checks: field -> i18n key. */
  validate?: (values: V, record: T | null) => Record<string, Problem>;
  /** The request body of the save. */
  body: (values: V, record: T | null) => unknown;
  /** Instead of saveRecord (e.g. a refusal said in the dialog's own words). */
  save?: (path: string, id: number | null, body: unknown) => Promise<T>;
  /** The record's single file (attachment, picture, media). */
  file?: FileOptions<T>;
  /** More to send once the record is saved (e.g. a list of files): answers the record. */
  after?: (saved: T) => Promise<T>;
  /** Each opening, after the reset: read the pickers' options. */
  onOpen?: () => void;
  successKey?: string;
  admin?: boolean;
  codeFields?: CodeFields;
};

type Rules<V> = Partial<Record<keyof V & string, Rule>>;

type Keys<V, Of> = { [K in keyof V]: V[K] extends Of ? K : never }[keyof V] & string;

export type AttachmentState = {
  /** The chosen or stored file's shown name, or null. */
  name: string | null;
  pick: (file: File | null) => void;
  remove: () => void;
  error: string | undefined;
};

export type RecordForm<V, T> = FormSubmit<T> & {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The stored record is being read: nothing to submit yet. */
  loading: boolean;
  /** No record yet (adding; not saved in this dialog). */
  isNew: boolean;
  /** The record as last read or saved. */
  record: T | null;
  values: V;
  set: <K extends keyof V>(key: K, value: V[K]) => void;
  /** A text input's props (Field, TextAreaField). */
  field: (name: Keys<V, string>) => FieldProps;
  /** A select's props (SelectField). */
  select: (name: Keys<V, string>) => {
    name: string;
    value: string;
    onValueChange: (value: string) => void;
    error: string | undefined;
  };
  /** A native checkbox's props. */
  checkbox: (name: Keys<V, boolean>) => {
    name: string;
    checked: boolean;
    onChange: (event: { target: { checked: boolean } }) => void;
  };
  attachment: AttachmentState;
  /** Saves without closing: the saved record or null (e.g. before adding a child record). */
  save: () => Promise<T | null>;
};

/**
 * A record's form dialog, whole (islands/README.md 'How to build a list page'):
 * - on open: the errors and values reset to `empty`; editing, the record is read
 *   (GET `<path>/<id>`, or the given `record`) and its values fill the form; a failed read closes;
 * - submit: `validate`, the submit delay, POST or PUT the `body`; then the file: the chosen one is
 *   sent (`file`), a removed one deleted, then `after`; the record is saved first, so a failed upload
 *   leaves it saved and the next submit updates it (no second record);
 * - errors under their fields (useFormSubmit); a field's message goes when it changes;
 * - success: the toast, `onSaved(saved)`, the dialog closes.
 */
export function useRecordForm<V extends object, T extends { id: number }>(
  dialog: RecordDialogProps<T>,
  options: RecordFormOptions<V, NoInfer<T>>,
): RecordForm<V, T> {
  const { t } = useTranslation();
  const { path, empty, file } = options;
  const [values, setValues] = useState<V>(empty);
  const [record, setRecord] = useState<T | null>(null);
  const [loading, setLoading] = useState(false);
  const [attachment, setAttachment] = useState<Attachment>(null);
  const stored = (saved: T | null) => (saved && file ? file.stored(saved) : null);
  const shownName = (name: string) => file?.rename?.(name) ?? name;

  const remember = (saved: T) => {
    setRecord(saved);
    dialog.onSaved?.(saved);
  };

  const form = useFormSubmit<T>({
    validate: () => {
      const rules = typeof options.rules === "function"
        ? options.rules(values, record)
        : options.rules;
      return { ...checkValues(values, rules ?? {}), ...options.validate?.(values, record) };
    },
    send: async () => {
      const id = record?.id ?? dialog.id;
      let saved = await (options.save ?? saveRecord<T>)(path, id, options.body(values, record));
      setRecord(saved);
      // The record is saved: the page shows it even if what follows (its file) fails.
      if (file || options.after) dialog.onSaved?.(saved);
      if (file) {
        const route = file.path?.(saved) ?? `${path}/${saved.id}/media-upload`;
        const step = attachmentStep(attachment, stored(saved));
        if (step === "upload" && attachment?.kind === "new") {
          const data = new FormData();
          for (const [key, value] of Object.entries(file.fields ?? {})) data.append(key, value);
          data.append("file", attachment.file, shownName(attachment.file.name));
          saved = await api.post<T>(route, data, { quiet: true });
        } else if (step === "remove") {
          saved = await api.delete<T>(route, { quiet: true });
        }
        const name = stored(saved);
        setAttachment(name ? { kind: "stored", name } : null);
      }
      if (options.after) saved = await options.after(saved);
      return saved;
    },
    successKey: options.successKey,
    admin: options.admin,
    codeFields: options.codeFields,
    onDone: remember,
  });

  const fill = (found: T) => {
    setRecord(found);
    setValues({ ...valuesOf(empty, found), ...options.values?.(found) });
    const name = stored(found);
    setAttachment(name ? { kind: "stored", name } : null);
  };

  useEffect(() => {
    if (!dialog.open) return;
    form.setErrors({});
    setValues(empty);
    setRecord(null);
    setAttachment(null);
    options.onOpen?.();
    if (dialog.record) {
      fill(dialog.record);
      return;
    }
    if (dialog.id === null || dialog.record === null) return;
    setLoading(true);
    api.get<T>(`${path}/${dialog.id}`).then(fill)
      .catch(() => dialog.onOpenChange(false))
      .finally(() => setLoading(false));
  }, [dialog.open, dialog.id]);

  const set = <K extends keyof V>(key: K, value: V[K]) => {
    setValues((old) => ({ ...old, [key]: value }));
    form.clearError(key as string);
  };
  const text = (name: Keys<V, string>) => values[name] as string;

  const save = form.submit;
  return {
    ...form,
    onSubmit: (event: FormEvent) => {
      event.preventDefault();
      void save().then((saved) => saved && dialog.onOpenChange(false));
    },
    open: dialog.open,
    onOpenChange: dialog.onOpenChange,
    loading,
    isNew: record === null && dialog.id === null,
    record,
    values,
    set,
    field: (name) => form.bind(name, text(name), (v) => set(name, v as V[typeof name])),
    select: (name) => ({
      name,
      value: text(name),
      onValueChange: (v) => set(name, v as V[typeof name]),
      error: form.errors[name] || undefined,
    }),
    checkbox: (name) => ({
      name,
      checked: values[name] as boolean,
      onChange: (event) => set(name, event.target.checked as V[typeof name]),
    }),
    attachment: {
      name: attachment === null
        ? null
        : attachment.kind === "stored"
        ? attachment.name
        : shownName(attachment.file.name),
      pick: (chosen) => {
        const problem = chosen ? file?.check?.(chosen) ?? null : null;
        // A file of the wrong kind is not kept: its message says why.
        form.setErrors({ ...form.errors, file: problem ? t(problem) : "" });
        if (chosen && !problem) setAttachment({ kind: "new", file: chosen });
      },
      remove: () => {
        form.clearError("file");
        setAttachment(null);
      },
      error: form.errors.file || undefined,
    },
    save,
  };
}
