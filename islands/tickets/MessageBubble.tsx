import { memo } from "react";
import { useTranslation } from "react-i18next";
import { Menu, MenuItem } from "../lib/ui/Menu.tsx";
import { hhmm } from "./format.ts";
import { hasMedia, MessageMedia } from "./MessageMedia.tsx";
import type { Message, MessageBase } from "../../contract/ticket_types.ts";
import { useCompanyClock } from "../lib/clock.ts";
import { plainText, waText } from "../lib/ui/wa_text.tsx";
import {
  canEdit,
  canForward,
  EditedMark,
  ForwardedLabel,
  useMessageTools,
} from "./message_tools.tsx";
import { icon } from "../lib/ui/icon.tsx";
import { TranscriptLine } from "./assist.tsx";

const Ban = icon("ban");
const Check = icon("check");
const CheckCheck = icon("check-check");
const ChevronDown = icon("chevron-down");
const Clock3 = icon("clock-3");
const Forward = icon("forward");
const Pencil = icon("pencil");
const PhoneIncoming = icon("phone-incoming");
const Reply = icon("reply");
const SmilePlus = icon("smile-plus");
const Trash2 = icon("trash-2");

/**
 * seeds/000 section 4 'Message acknowledgement': 1 single tick, 2 delivered (double), 3 read,
 * 4 or 5 read (coloured); 0 is still on its way (a clock).
 */
export function AckIcon({ ack }: { ack: number }) {
  const { t } = useTranslation();
  const label = t(`tickets.ack.${Math.min(Math.max(ack, 0), 3)}`);
  const Icon = ack <= 0 ? Clock3 : ack === 1 ? Check : CheckCheck;
  return (
    <span className="mb-ack" data-ack={ack} data-read={ack >= 3 || undefined} title={label}>
      <Icon size={15} aria-label={label} />
    </span>
  );
}

/** What a quote shows of the quoted message: its text, or the kind of media. */
export function quoteText(message: MessageBase, t: (key: string) => string): string {
  if (message.isDeleted) return t("tickets.message.deleted");
  const text = plainText(message.body ?? "").trim();
  if (message.mediaType === "locationMessage") return t("tickets.media.location");
  if (message.mediaType === "vcard") return t("tickets.media.contact");
  if (message.mediaUrl && (!text || text === message.mediaName)) {
    return message.mediaName || t(`tickets.media.kind.${message.mediaType ?? "application"}`);
  }
  return text;
}

export type MessageBubbleProps = {
  message: Message;
  /** First of a run from the same side: gets the bubble's tail. */
  first: boolean;
  contactName: string;
  readOnly: boolean;
  onReply: (message: Message) => void;
  onDelete: (message: Message) => void;
  /** Issue 28: a click on the quote shows the quoted message in the conversation. */
  onQuote?: (messageId: number) => void;
};

/**
 * One message (bubble max width 600, seeds/000 section 2): quote, media, formatted text, time,
 * ticks; a menu with reply and (own messages) delete. A deleted message is shown as deleted
 * and its menu is disabled.
 */
export const MessageBubble = memo(function MessageBubble(
  { message, first, contactName, readOnly, onReply, onDelete, onQuote }: MessageBubbleProps,
) {
  const { t } = useTranslation();
  const zone = useCompanyClock().zone;
  if (message.mediaType === "call_log") {
    return (
      <div className="mb-system" data-testid="message-call">
        <PhoneIncoming size={14} aria-hidden="true" />
        {message.body}
        <time>{hhmm(new Date(message.createdAt), zone)}</time>
      </div>
    );
  }
  const media = hasMedia(message);
  const special = message.mediaType === "locationMessage" || message.mediaType === "vcard";
  const text = message.body ?? "";
  const showText = !special && text.trim() !== "" &&
    !(media && (text === message.mediaName || message.mediaType === "audio"));
  const quoted = message.quotedMsg;
  const tools = useMessageTools();
  const selectable = tools?.selecting && canForward(message);
  return (
    <div
      className="mb-row"
      data-me={message.fromMe || undefined}
      data-first={first || undefined}
      data-message-id={message.id}
    >
      {selectable
        ? (
          <input
            type="checkbox"
            className="mb-select"
            aria-label={t("tickets.messageTools.select")}
            checked={tools.selected.has(message.id)}
            onChange={() => tools.toggle(message)}
            data-testid="message-select"
          />
        )
        : null}
      <div
        className="mb"
        data-testid="message"
        data-deleted={message.isDeleted || undefined}
        data-media={media ? message.mediaType ?? "file" : undefined}
      >
        {readOnly ? null : (
          <Menu
            label={t("tickets.message.actions")}
            trigger={
              <button
                type="button"
                className="mb-menu"
                aria-label={t("tickets.message.actions")}
                disabled={message.isDeleted}
                data-testid="message-menu"
              >
                <ChevronDown size={16} aria-hidden="true" />
              </button>
            }
          >
            <MenuItem
              icon={<Reply size={16} aria-hidden="true" />}
              onSelect={() => onReply(message)}
            >
              {t("tickets.message.reply")}
            </MenuItem>
            {tools && canForward(message)
              ? (
                <MenuItem
                  icon={<Forward size={16} aria-hidden="true" />}
                  onSelect={() => tools.startForward(message)}
                >
                  {t("tickets.messageTools.forward")}
                </MenuItem>
              )
              : null}
            {tools && canEdit(message)
              ? (
                <MenuItem
                  icon={<Pencil size={16} aria-hidden="true" />}
                  onSelect={() => tools.edit(message)}
                >
                  {t("tickets.messageTools.edit")}
                </MenuItem>
              )
              : null}
            {tools?.react
              ? (
                <MenuItem
                  icon={<SmilePlus size={16} aria-hidden="true" />}
                  onSelect={() => tools.react?.(message, message.ownReaction ? "" : "👍")}
                >
                  {t(message.ownReaction ? "tickets.message.unreact" : "tickets.message.react")}
                </MenuItem>
              )
              : null}
            {message.fromMe
              ? (
                <MenuItem
                  icon={<Trash2 size={16} aria-hidden="true" />}
                  onSelect={() => onDelete(message)}
                >
                  {t("tickets.message.delete")}
                </MenuItem>
              )
              : null}
          </Menu>
        )}
        {message.isDeleted
          ? (
            <div className="mb-deleted-label">
              <Ban size={13} aria-hidden="true" />
              {t("tickets.message.deleted")}
            </div>
          )
          : null}
        {message.isForwarded ? <ForwardedLabel /> : null}
        {quoted
          ? (
            <button
              type="button"
              className="mb-quote"
              data-me={quoted.fromMe || undefined}
              data-testid="message-quote"
              title={t("tickets.find.toQuote")}
              onClick={() => onQuote?.(quoted.id)}
            >
              <strong>{quoted.fromMe ? t("tickets.message.you") : contactName}</strong>
              <span>{quoteText(quoted, t)}</span>
            </button>
          )
          : null}
        {media ? <MessageMedia message={message} /> : null}
        {media && message.mediaType === "audio" ? <TranscriptLine message={message} /> : null}
        {showText ? <div className="mb-text">{waText(text)}</div> : null}
        <div className="mb-meta">
          {message.isEdited ? <EditedMark message={message} /> : null}
          <time dateTime={message.createdAt}>{hhmm(new Date(message.createdAt), zone)}</time>
          {message.fromMe ? <AckIcon ack={message.ack} /> : null}
        </div>
        {message.reaction || message.ownReaction
          ? (
            <div className="mb-reactions" data-testid="message-reactions">
              {message.reaction
                ? <span title={t("tickets.message.reactionContact")}>{message.reaction}</span>
                : null}
              {message.ownReaction
                ? (
                  <span data-own="" title={t("tickets.message.reactionOwn")}>
                    {message.ownReaction}
                  </span>
                )
                : null}
            </div>
          )
          : null}
      </div>
    </div>
  );
});
