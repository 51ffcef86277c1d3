import { type ComponentType, useRef } from "react";
import type { AttachmentState } from "../list/record_form.ts";
import { Button } from "./Button.tsx";
import { icon } from "./icon.tsx";

const Paperclip = icon("paperclip");
const X = icon("x");

/**
 * A record's file in its form (useRecordForm's `attachment`, sent once the record is saved): the
 * chosen or stored file's name with its remove button, or the button that picks one; the file's
 * problem under it. The file input is `<testId>-file`, the chosen file `<testId>-attachment`.
 */
export function AttachmentField(
  {
    attachment,
    label,
    pickLabel = label ?? "",
    removeLabel,
    testId,
    accept,
    icon: Icon = Paperclip,
    readOnly = false,
  }: {
    attachment: AttachmentState;
    label?: string;
    /** The pick button's text; default the label. */
    pickLabel?: string;
    removeLabel: string;
    testId: string;
    accept?: string;
    icon?: ComponentType<{ size?: number; "aria-hidden"?: "true" }>;
    readOnly?: boolean;
  },
) {
  const picker = useRef<HTMLInputElement>(null);
  return (
    <div className="field attachment-field">
      {label ? <span className="attach-label">{label}</span> : null}
      <input
        ref={picker}
        type="file"
        accept={accept}
        hidden
        data-testid={`${testId}-file`}
        onChange={(e) => {
          const chosen = e.target.files?.[0] ?? null;
          e.target.value = "";
          attachment.pick(chosen);
        }}
      />
      {attachment.name !== null
        ? (
          <span className="file-chip" data-testid={`${testId}-attachment`}>
            <Icon size={14} aria-hidden="true" />
            <span>{attachment.name}</span>
            {readOnly ? null : (
              <button
                type="button"
                className="file-chip-x"
                aria-label={removeLabel}
                onClick={attachment.remove}
              >
                <X size={14} aria-hidden="true" />
              </button>
            )}
          </span>
        )
        : readOnly
        ? null
        : (
          <Button variant="ghost" onClick={() => picker.current?.click()}>
            <Icon size={16} aria-hidden="true" />
            {pickLabel}
          </Button>
        )}
      {attachment.error ? <span className="field-error">{attachment.error}</span> : null}
    </div>
  );
}
