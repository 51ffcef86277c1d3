import {
  type ClipboardEvent,
  type KeyboardEvent,
  useEffect,
  useLayoutEffect,
  useRef,
  useState,
} from "react";
import { useTranslation } from "react-i18next";
import { api } from "../lib/api.ts";
import { readStorage, STORAGE, writeStorage } from "../lib/storage.ts";
import { useUser } from "../lib/session.ts";
import { IconButton } from "../lib/ui/Button.tsx";
import { AudioRecorder } from "./AudioRecorder.tsx";
import { Switch } from "./bits.tsx";
import { INPUT_MAX_ROWS, isBlank, quickAnswerQuery, signedBody } from "./format.ts";
import { quoteText } from "./MessageBubble.tsx";
import { matchQuickAnswers, QuickAnswers } from "./QuickAnswers.tsx";
import type { Message, QuickMessage } from "../../contract/ticket_types.ts";
import { useLookup } from "../lib/use_lookup.ts";
import type { ConversationWindow } from "../../contract/channels.ts";
import { TemplatePicker } from "./TemplatePicker.tsx";
import { icon } from "../lib/ui/icon.tsx";
import { SuggestReplies, useAssistPlan } from "./assist.tsx";

const FileText = icon("file-text");
const Paperclip = icon("paperclip");
const SendHorizontal = icon("send-horizontal");
const X = icon("x");

/** A quick answer's attachment as a file of the input (GET /quick-messages/:id/media). */
async function quickAnswerFile(item: QuickMessage): Promise<File> {
  const data = await api.get<Blob | string>(`/quick-messages/${item.id}/media`);
  const blob = typeof data === "string" ? new Blob([data], { type: "text/plain" }) : data;
  return new File([blob], item.mediaName ?? "arquivo", { type: blob.type });
}

export type MessageInputProps = {
  ticketId: number;
  contactName: string;
  replyTo: Message | null;
  onClearReply: () => void;
  /** The server's answer to a send, shown before its socket event. */
  onSent: (answer: unknown) => void;
  /** The contact's last message (id): a new one may reopen the 24-hour window. */
  lastInboundId?: number;
  /**
   * The connection has the 24-hour window (capability `window24h`): only then is the window
   * asked (GET /messages/:ticketId/window); other channels never close it.
   */
  window24h?: boolean;
};

/** seeds/000 section 9: the sign-message option is stored locally and on by default. */
function storedSign(): boolean {
  return readStorage(STORAGE.signMessage) !== "false";
}

/**
 * The message input (seeds/000 sections 2 and 5): grows up to 5 rows; Enter sends and
 * Shift+Enter breaks the line; quick-answer suggestions after '/'; attachments (a file picker
 * or pasted files, sent as multipart `medias`); the audio recorder; the sign-message switch
 * (medium screens and wider) that prefixes the user's name in bold; a quoted reply. Empty or
 * blank text is never sent.
 */
export function MessageInput(
  { ticketId, contactName, replyTo, onClearReply, onSent, lastInboundId, window24h }:
    MessageInputProps,
) {
  const { t } = useTranslation();
  const user = useUser();
  const [text, setText] = useState("");
  const [files, setFiles] = useState<File[]>([]);
  const [sign, setSign] = useState(true);
  const [sending, setSending] = useState(false);
  const [recording, setRecording] = useState(false);
  const [active, setActive] = useState(0);
  const [dismissed, setDismissed] = useState<string | null>(null);
  const area = useRef<HTMLTextAreaElement>(null);
  const picker = useRef<HTMLInputElement>(null);
  const quick = useLookup<QuickMessage>("/quick-messages/list", "records");
  const assist = useAssistPlan();

  // Issue 45: on a channel with the 24-hour window, past it the composer offers templates.
  const [convWindow, setWindow] = useState<ConversationWindow | null>(null);
  const [windowReads, setWindowReads] = useState(0);
  useEffect(() => {
    let live = true;
    if (!window24h) {
      setWindow(null);
      return;
    }
    api.get<ConversationWindow>(`/messages/${ticketId}/window`, { quiet: true })
      .then((answer) => live && setWindow(answer))
      .catch(() => live && setWindow(null));
    return () => {
      live = false;
    };
  }, [ticketId, lastInboundId, windowReads, window24h]);

  useEffect(() => setSign(storedSign()), []);
  useEffect(() => {
    if (replyTo) area.current?.focus();
  }, [replyTo]);

  // Grow with the text up to 5 rows, then scroll inside.
  useLayoutEffect(() => {
    const el = area.current;
    if (!el) return;
    el.style.height = "auto";
    const line = parseFloat(getComputedStyle(el).lineHeight) || 20;
    const padding = el.offsetHeight - el.clientHeight +
      parseFloat(getComputedStyle(el).paddingTop) + parseFloat(getComputedStyle(el).paddingBottom);
    el.style.height = `${Math.min(el.scrollHeight, line * INPUT_MAX_ROWS + padding)}px`;
  }, [text]);

  const query = dismissed === text ? null : quickAnswerQuery(text);
  const suggestions = matchQuickAnswers(quick.items, query);
  useEffect(() => setActive(0), [query]);

  const toggleSign = (value: boolean) => {
    setSign(value);
    writeStorage(STORAGE.signMessage, String(value));
  };

  const canSend = !sending && (!isBlank(text) || files.length > 0);

  const send = async () => {
    if (!canSend) return;
    const body = isBlank(text) ? "" : signedBody(text, user.name, sign);
    const quoted = replyTo;
    const attachments = files;
    const typed = text;
    setSending(true);
    setText("");
    setFiles([]);
    onClearReply();
    try {
      if (attachments.length > 0) {
        const form = new FormData();
        form.append("fromMe", "true");
        form.append("body", body);
        if (quoted) form.append("quotedMsgId", String(quoted.id));
        for (const file of attachments) form.append("medias", file, file.name);
        onSent(await api.post(`/messages/${ticketId}`, form));
      } else {
        onSent(
          await api.post(`/messages/${ticketId}`, {
            body,
            fromMe: true,
            read: true,
            quotedMsg: quoted ? { id: quoted.id } : undefined,
          }),
        );
      }
    } catch (error) {
      // Shown by the api client; give the text back unless something new was typed.
      setText((now) => now === "" ? typed : now);
      // The window closed while the composer was open: show the templates now.
      if ((error as { code?: string }).code === "ERR_WHATSAPP_WINDOW_CLOSED") {
        setWindowReads((n) => n + 1);
      }
      setFiles((now) => now.length === 0 ? attachments : now);
    } finally {
      setSending(false);
      area.current?.focus();
    }
  };

  const sendAudio = async (file: File) => {
    const form = new FormData();
    form.append("fromMe", "true");
    form.append("body", "");
    // A recorded voice note goes as push-to-talk (WhatsApp shows it as a voice message).
    form.append("ptt", "true");
    form.append("medias", file, file.name);
    onSent(await api.post(`/messages/${ticketId}`, form));
  };

  const pick = (item: QuickMessage) => {
    setText(item.message);
    setDismissed(item.message);
    // An answer with a file sends it too (seeds/001 'Quick messages'): it joins the attachments.
    if (item.isMedia) {
      quickAnswerFile(item).then((file) => setFiles((old) => [...old, file])).catch(() => {});
    }
    area.current?.focus();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.nativeEvent.isComposing) return;
    if (suggestions.length > 0) {
      if (event.key === "ArrowDown" || event.key === "ArrowUp") {
        event.preventDefault();
        const step = event.key === "ArrowDown" ? 1 : -1;
        setActive((i) => (i + step + suggestions.length) % suggestions.length);
        return;
      }
      if (event.key === "Enter" || event.key === "Tab") {
        event.preventDefault();
        pick(suggestions[Math.min(active, suggestions.length - 1)]);
        return;
      }
      if (event.key === "Escape") {
        setDismissed(text);
        return;
      }
    }
    if (event.key === "Enter" && !event.shiftKey) {
      event.preventDefault();
      void send();
    }
  };

  const onPaste = (event: ClipboardEvent<HTMLTextAreaElement>) => {
    const pasted = [...event.clipboardData.files];
    if (pasted.length > 0) {
      event.preventDefault();
      setFiles((old) => [...old, ...pasted]);
    }
  };

  if (convWindow?.window24h && !convWindow.open) {
    return (
      <TemplatePicker
        ticketId={ticketId}
        contactName={contactName}
        window={convWindow}
        onSent={onSent}
      />
    );
  }

  return (
    <div className="mi" data-testid="message-input">
      {replyTo
        ? (
          <div className="mi-reply" data-testid="reply-preview">
            <div className="mb-quote" data-me={replyTo.fromMe || undefined}>
              <strong>{replyTo.fromMe ? t("tickets.message.you") : contactName}</strong>
              <span>{quoteText(replyTo, t)}</span>
            </div>
            <IconButton label={t("tickets.input.cancelReply")} onClick={onClearReply}>
              <X size={18} aria-hidden="true" />
            </IconButton>
          </div>
        )
        : null}
      {files.length > 0
        ? (
          <ul className="mi-files" data-testid="attachments">
            {files.map((file, index) => (
              <li key={`${file.name}-${index}`} className="mi-file">
                <FileText size={16} aria-hidden="true" />
                <span title={file.name}>{file.name}</span>
                <button
                  type="button"
                  className="mi-file-x"
                  aria-label={t("tickets.input.removeFile", { name: file.name })}
                  onClick={() => setFiles((old) => old.filter((_, i) => i !== index))}
                >
                  <X size={14} aria-hidden="true" />
                </button>
              </li>
            ))}
          </ul>
        )
        : null}
      <QuickAnswers items={suggestions} active={active} onPick={pick} onHover={setActive} />
      <div className="mi-row">
        {recording ? null : (
          <>
            {assist
              ? (
                <SuggestReplies
                  ticketId={ticketId}
                  onPick={(suggestion) => {
                    setText(suggestion);
                    area.current?.focus();
                  }}
                />
              )
              : null}
            <IconButton
              label={t("tickets.input.attach")}
              onClick={() => picker.current?.click()}
              data-testid="attach"
            >
              <Paperclip size={20} aria-hidden="true" />
            </IconButton>
            <input
              ref={picker}
              type="file"
              multiple
              hidden
              data-testid="attach-input"
              onChange={(e) => {
                const chosen = [...(e.target.files ?? [])];
                if (chosen.length) setFiles((old) => [...old, ...chosen]);
                e.target.value = "";
              }}
            />
            <div className="mi-sign">
              <Switch
                checked={sign}
                onChange={toggleSign}
                label={t("tickets.input.sign")}
                testId="sign-toggle"
              />
            </div>
            <textarea
              ref={area}
              className="mi-text"
              rows={1}
              value={text}
              placeholder={files.length > 0
                ? t("tickets.input.caption")
                : t("tickets.input.placeholder")}
              aria-label={t("tickets.input.placeholder")}
              onChange={(e) => setText(e.target.value)}
              onKeyDown={onKeyDown}
              onPaste={onPaste}
              data-testid="message-text"
            />
          </>
        )}
        {!recording && (!isBlank(text) || files.length > 0)
          ? (
            <IconButton
              label={t("tickets.input.send")}
              className="mi-send"
              onClick={() => void send()}
              disabled={!canSend}
              data-testid="send"
            >
              <SendHorizontal size={20} aria-hidden="true" />
            </IconButton>
          )
          : <AudioRecorder disabled={sending} onRecorded={sendAudio} onState={setRecording} />}
      </div>
    </div>
  );
}
