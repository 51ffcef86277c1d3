import { api } from "../lib/api.ts";
import { createContext, useContext, useMemo, useState } from "react";
import { splitSignature } from "../../contract/signature.ts";
import { waText } from "../lib/ui/wa_text.tsx";
import { useTranslation } from "react-i18next";
import { EDIT_WINDOW_MINUTES } from "../../contract/validation.ts";
import type { Message } from "../../contract/ticket_types.ts";
import { Button } from "../lib/ui/Button.tsx";
import { Popover } from "../lib/ui/Popover.tsx";
import { whenOpen } from "../lib/ui/deferred.tsx";
import { hhmm } from "./format.ts";
import { useCompanyClock } from "../lib/clock.ts";
import { icon } from "../lib/ui/icon.tsx";

const Forward = icon("forward");
const X = icon("x");

const ForwardDialog = whenOpen(() => import("./ForwardDialog.tsx").then((m) => m.ForwardDialog));
const EditMessageDialog = whenOpen(() =>
  import("./EditMessageDialog.tsx").then((m) => m.EditMessageDialog)
);

/**
 * Forward and edit (issue 28) as the bubbles see them: a selection of messages to forward, and
 * the edit of one of ours. The ticket view provides it; the list and the bubbles only read it.
 */
export type MessageTools = {
  selecting: boolean;
  selected: ReadonlySet<number>;
  toggle: (message: Message) => void;
  /** Starts a selection with this message in it. */
  startForward: (message: Message) => void;
  edit: (message: Message) => void;
  /** Issue 45: the attendant's reaction ("" removes it); only on channels with `reactions`. */
  react?: (message: Message, emoji: string) => void;
};

const MessageToolsContext = createContext<MessageTools | null>(null);

export function useMessageTools(): MessageTools | null {
  return useContext(MessageToolsContext);
}

/** May this message be forwarded (not deleted, something to send)? */
export function canForward(message: Message): boolean {
  return !message.isDeleted && message.mediaType !== "call_log" &&
    (message.body.trim() !== "" || message.mediaUrl !== null);
}

/** A text of ours still inside WhatsApp's edit window (the server has the last word). */
export function canEdit(message: Message, now = Date.now()): boolean {
  return message.fromMe && !message.isDeleted && message.mediaUrl === null &&
    message.mediaType === null && now - Date.parse(message.createdAt) <=
      EDIT_WINDOW_MINUTES * 60_000;
}

/**
 * The state behind the tools for one ticket, the provider to wrap its list in, the bar that
 * replaces the input while selecting and the dialogs.
 */
export function useMessageToolsState(
  ticketId: number,
  onEdited: (message: Message) => void,
  reactions = false,
) {
  const [selected, setSelected] = useState<ReadonlySet<number>>(new Set());
  const [selecting, setSelecting] = useState(false);
  const [forwarding, setForwarding] = useState(false);
  const [editing, setEditing] = useState<Message | null>(null);
  const tools = useMemo<MessageTools>(() => ({
    selecting,
    selected,
    toggle: (message) =>
      setSelected((old) => {
        const next = new Set(old);
        if (next.has(message.id)) next.delete(message.id);
        else next.add(message.id);
        return next;
      }),
    startForward: (message) => {
      setSelecting(true);
      setSelected(new Set([message.id]));
    },
    edit: setEditing,
    react: reactions
      ? (message, emoji) => {
        api.post<Message>(`/messages/${message.id}/reaction`, { emoji })
          .then(onEdited).catch(() => {}); // the api client shows why
      }
      : undefined,
  }), [selecting, selected, reactions]);
  const stop = () => {
    setSelecting(false);
    setSelected(new Set());
  };
  return {
    tools,
    selecting,
    Provider: MessageToolsContext.Provider,
    bar: selecting
      ? (
        <SelectionBar
          count={selected.size}
          onForward={() => setForwarding(true)}
          onCancel={stop}
        />
      )
      : null,
    dialogs: (
      <>
        <ForwardDialog
          open={forwarding}
          key={`forward-${ticketId}`}
          messageIds={[...selected]}
          onOpenChange={(open: boolean) => !open && setForwarding(false)}
          onDone={() => {
            setForwarding(false);
            stop();
          }}
        />
        <EditMessageDialog
          open={editing !== null}
          message={editing}
          onOpenChange={(open: boolean) => !open && setEditing(null)}
          onDone={(message: Message) => {
            setEditing(null);
            onEdited(message);
          }}
        />
      </>
    ),
  };
}

/** Instead of the input while messages are being chosen: how many, forward, cancel. */
function SelectionBar(
  { count, onForward, onCancel }: { count: number; onForward: () => void; onCancel: () => void },
) {
  const { t } = useTranslation();
  return (
    <div className="tv-locked mt-bar" data-testid="forward-bar">
      <span>{t("tickets.messageTools.selected", { count })}</span>
      <Button variant="ghost" onClick={onCancel}>
        <X size={16} aria-hidden="true" />
        {t("tickets.messageTools.cancel")}
      </Button>
      <Button
        variant="primary"
        disabled={count === 0}
        onClick={onForward}
        data-testid="forward-open"
      >
        <Forward size={16} aria-hidden="true" />
        {t("tickets.messageTools.forward")}
      </Button>
    </div>
  );
}

/** 'Encaminhada' above a forwarded message's content, as WhatsApp shows it. */
export function ForwardedLabel() {
  const { t } = useTranslation();
  return (
    <div className="mb-forwarded" data-testid="message-forwarded">
      <Forward size={13} aria-hidden="true" />
      {t("tickets.messageTools.forwarded")}
    </div>
  );
}

/** 'editada', which shows the replaced texts when clicked (when there are any). */
export function EditedMark({ message }: { message: Message }) {
  const { t } = useTranslation();
  const zone = useCompanyClock().zone;
  const previous = message.previousBodies ?? [];
  if (previous.length === 0) {
    return <span data-testid="message-edited">{t("tickets.message.edited")}</span>;
  }
  return (
    <Popover
      align="end"
      trigger={
        <button
          type="button"
          className="mb-edited"
          aria-label={t("tickets.messageTools.showPrevious")}
          data-testid="message-edited"
        >
          {t("tickets.message.edited")}
        </button>
      }
    >
      <div className="mb-previous" data-testid="message-previous">
        <strong>{t("tickets.messageTools.previous")}</strong>
        <ol>
          {previous.map((p, i) => (
            <li key={i}>
              {
                /* The text as the bubble showed it: formatted, without the signature line (issue
                  50 item 4: it did not change, and its markup read as raw asterisks). */
              }
              <span>{waText(splitSignature(p.body).text)}</span>
              <time dateTime={p.editedAt}>{hhmm(new Date(p.editedAt), zone)}</time>
            </li>
          ))}
        </ol>
      </div>
    </Popover>
  );
}
