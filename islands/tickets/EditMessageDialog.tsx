import { useState } from "react";
import { useTranslation } from "react-i18next";
import { api } from "../lib/api.ts";
import { FormDialog } from "../lib/list/FormDialog.tsx";
import { useFormSubmit } from "../lib/list/form_submit.ts";
import { TextAreaField } from "../lib/ui/TextArea.tsx";
import type { Message } from "../../contract/ticket_types.ts";
import { EDIT_WINDOW_MINUTES, LIMITS } from "../../contract/validation.ts";
import { splitSignature } from "../../contract/signature.ts";

/**
 * Edit a text we sent (issue 28): PUT /api/messages/:id. The server refuses after WhatsApp's
 * window (ERR_EDIT_WINDOW_EXPIRED, said as a toast); the bubble updates from the answer and
 * other tabs from the message's update event.
 */
export function EditMessageDialog(
  { message, onOpenChange, onDone }: {
    open: boolean;
    message: Message | null;
    onOpenChange: (open: boolean) => void;
    onDone: (message: Message) => void;
  },
) {
  const { t } = useTranslation();
  // The text only: the signature stays as sent (the server keeps it, issue 50).
  const [body, setBody] = useState(splitSignature(message?.body ?? "").text);
  const form = useFormSubmit({
    validate: (): Record<string, string> => {
      const text = body.trim();
      if (!text) return { body: "people.validation.required" };
      if (text.length > LIMITS.editedText.max) return { body: "people.validation.tooLong" };
      return {};
    },
    send: () =>
      api.put<Message>(`/messages/${message!.id}`, { body: body.trim() }, { quiet: true }),
    successKey: "tickets.messageTools.editSaved",
    onDone,
  });
  return (
    <FormDialog
      form={form}
      onOpenChange={onOpenChange}
      id="edit-message"
      title={t("tickets.messageTools.editTitle")}
      description={t("tickets.messageTools.editWindow", { minutes: EDIT_WINDOW_MINUTES })}
      submitLabel={t("common.save")}
      width={480}
      formClassName=""
    >
      <TextAreaField
        label={t("tickets.messageTools.editText")}
        {...form.bind("body", body, setBody)}
        rows={4}
        autoFocus
      />
    </FormDialog>
  );
}
