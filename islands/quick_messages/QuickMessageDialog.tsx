import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import Paperclip from "lucide-react/icons/paperclip";
import X from "lucide-react/icons/x";
import { api } from "../lib/api.ts";
import { FormDialog, saveRecord, useFormSubmit } from "../lib/list/FormDialog.tsx";
import type { QuickMessageView } from "../../contract/quick_message_types.ts";
import { Button } from "../lib/ui/Button.tsx";
import { Field } from "../lib/ui/Field.tsx";
import { TextAreaField } from "../lib/ui/TextArea.tsx";
import { LIMITS } from "../../contract/validation.ts";

/** The attachment as the form holds it: the stored one, a file chosen now, or none. */
type Attachment = { kind: "stored"; name: string } | { kind: "new"; file: File } | null;

/** seeds/001 section 2: spaces in an attachment's name become underscores. */
export function shownName(name: string): string {
  return name.replace(/\s+/g, "_");
}

/**
 * Add or edit a quick answer (seeds/001 sections 2 'Quick messages', 5): shortcode required
 * ('Obrigatório'), the message, for the whole company (`geral`) or personal, and an attachment
 * uploaded after the answer is saved (POST /quick-messages/:id/media-upload); removing it is a
 * DELETE of the same path. The server checks the file's type and size.
 */
export function QuickMessageDialog(
  { open, onOpenChange, recordId, onSaved }: {
    open: boolean;
    onOpenChange: (open: boolean) => void;
    recordId: number | null;
    onSaved: (record: QuickMessageView) => void;
  },
) {
  const { t } = useTranslation();
  const [shortcode, setShortcode] = useState("");
  const [message, setMessage] = useState("");
  const [geral, setGeral] = useState(false);
  const [attachment, setAttachment] = useState<Attachment>(null);
  const [hadMedia, setHadMedia] = useState(false);
  const [loading, setLoading] = useState(false);
  // Saved in this dialog already (the upload after it may still fail): later submits update it.
  const [savedId, setSavedId] = useState<number | null>(null);
  const picker = useRef<HTMLInputElement>(null);

  const form = useFormSubmit<QuickMessageView>({
    validate: (): Record<string, string> => {
      const v = shortcode.trim();
      if (!v) return { shortcode: "quickMessages.required" };
      if (v.length > LIMITS.shortcode.max) return { shortcode: "people.validation.tooLong" };
      return {};
    },
    send: async () => {
      let saved = await saveRecord<QuickMessageView>("/quick-messages", recordId ?? savedId, {
        shortcode: shortcode.trim(),
        message,
        geral,
      });
      setSavedId(saved.id);
      onSaved(saved);
      const media = `/quick-messages/${saved.id}/media-upload`;
      if (attachment?.kind === "new") {
        const body = new FormData();
        body.append("typeArch", "quickMessage");
        body.append("file", attachment.file, shownName(attachment.file.name));
        saved = await api.post<QuickMessageView>(media, body, { quiet: true });
        setHadMedia(true);
      } else if (attachment === null && hadMedia) {
        saved = await api.delete<QuickMessageView>(media, { quiet: true });
      }
      return saved;
    },
    successKey: "quickMessages.saved",
    admin: true,
    onDone: (saved) => {
      onSaved(saved);
      onOpenChange(false);
    },
  });

  useEffect(() => {
    if (!open) return;
    form.setErrors({});
    setShortcode("");
    setMessage("");
    setGeral(false);
    setAttachment(null);
    setHadMedia(false);
    setSavedId(null);
    if (recordId === null) return;
    setLoading(true);
    api.get<QuickMessageView>(`/quick-messages/${recordId}`).then((q) => {
      setShortcode(q.shortcode);
      setMessage(q.message);
      setGeral(q.geral);
      setHadMedia(q.isMedia);
      setAttachment(q.isMedia ? { kind: "stored", name: q.mediaName ?? "" } : null);
    }).catch(() => onOpenChange(false)).finally(() => setLoading(false));
  }, [open, recordId]);

  const attachedName = attachment === null
    ? null
    : attachment.kind === "stored"
    ? attachment.name
    : shownName(attachment.file.name);

  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      width={520}
      title={recordId === null ? t("quickMessages.addTitle") : t("quickMessages.editTitle")}
      formId="quick-message-form"
      form={form}
      submitLabel={recordId === null ? t("common.add") : t("common.save")}
      submitTestId="quick-message-submit"
      disabled={loading}
    >
      <Field
        label={t("quickMessages.shortcode")}
        {...form.bind("shortcode", shortcode, setShortcode)}
        autoFocus
      />
      <TextAreaField
        label={t("quickMessages.message")}
        rows={5}
        {...form.bind("message", message, setMessage)}
      />
      <label className="qm-switch">
        <input
          type="checkbox"
          role="switch"
          checked={geral}
          onChange={(e) => setGeral(e.target.checked)}
          data-testid="quick-message-geral"
        />
        <span>{t("quickMessages.geral")}</span>
      </label>
      <input
        ref={picker}
        type="file"
        hidden
        data-testid="quick-message-file"
        onChange={(e) => {
          const chosen = e.target.files?.[0];
          e.target.value = "";
          if (chosen) setAttachment({ kind: "new", file: chosen });
        }}
      />
      <div className="qm-attachment">
        {attachedName !== null
          ? (
            <span className="file-chip" data-testid="quick-message-attachment">
              <Paperclip size={14} aria-hidden="true" />
              <span>{attachedName}</span>
              <button
                type="button"
                className="file-chip-x"
                aria-label={t("quickMessages.removeFile", { name: attachedName })}
                onClick={() => setAttachment(null)}
              >
                <X size={14} aria-hidden="true" />
              </button>
            </span>
          )
          : (
            <Button variant="ghost" onClick={() => picker.current?.click()}>
              <Paperclip size={16} aria-hidden="true" />
              {t("quickMessages.attach")}
            </Button>
          )}
        {form.errors.file ? <span className="field-error">{form.errors.file}</span> : null}
      </div>
    </FormDialog>
  );
}
