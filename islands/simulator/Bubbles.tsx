import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Menu, MenuItem } from "../lib/ui/Menu.tsx";
import { plainText, waText } from "../lib/ui/wa_text.tsx";
import {
  ackState,
  humanSize,
  type MediaKind,
  mediaKind,
  type OwnMessage,
  type SentItem,
} from "./model.ts";
import { icon } from "../lib/ui/icon.tsx";

const Ban = icon("ban");
const Check = icon("check");
const CheckCheck = icon("check-check");
const Forward = icon("forward");
const ChevronDown = icon("chevron-down");
const CircleAlert = icon("circle-alert");
const Clock = icon("clock");
const FileText = icon("file-text");
const ImageIcon = icon("image");
const Mic = icon("mic");
const Music = icon("music");
const Pencil = icon("pencil");
const Reply = icon("reply");
const RotateCcw = icon("rotate-ccw");
const Trash2 = icon("trash-2");
const Video = icon("video");

const MEDIA_ICONS: Record<MediaKind, typeof ImageIcon> = {
  image: ImageIcon,
  audio: Music,
  video: Video,
  document: FileText,
};

function time(at: number): string {
  const d = new Date(at);
  return `${String(d.getHours()).padStart(2, "0")}:${String(d.getMinutes()).padStart(2, "0")}`;
}

function MediaChip(
  { kind, filename, size, ptt }: {
    kind: MediaKind;
    filename: string | null;
    size: number | null;
    ptt?: boolean;
  },
) {
  const { t } = useTranslation();
  const Icon = ptt ? Mic : MEDIA_ICONS[kind];
  return (
    <div className="sim-media">
      <span className="sim-media-icon">
        <Icon size={18} aria-hidden="true" />
      </span>
      <span className="sim-media-text">
        <span>
          {ptt ? t("simulator.chat.voiceNote") : filename || t(`simulator.media.${kind}`)}
        </span>
        <small>{humanSize(size)}</small>
      </span>
    </div>
  );
}

function BubbleMenu(
  { children, label }: { children: ReactNode; label: string },
) {
  return (
    <Menu
      label={label}
      trigger={
        <button type="button" className="sim-bubble-menu" aria-label={label}>
          <ChevronDown size={16} aria-hidden="true" />
        </button>
      }
    >
      {children}
    </Menu>
  );
}

function Item(
  { icon, children, onSelect, disabled }: {
    icon: ReactNode;
    children: ReactNode;
    onSelect: () => void;
    disabled?: boolean;
  },
) {
  return <MenuItem icon={icon} onSelect={onSelect} disabled={disabled}>{children}</MenuItem>;
}

/** A message the contact (this page) sent: right side, with its delivery state. */
export function ContactBubble(
  { message, quoted, onEdit, onRevoke, onRetry, actionsEnabled }: {
    message: OwnMessage;
    quoted: SentItem | null;
    onEdit: () => void;
    onRevoke: () => void;
    onRetry: () => void;
    actionsEnabled: boolean;
  },
) {
  const { t } = useTranslation();
  const StateIcon = message.state === "sending"
    ? Clock
    : message.state === "failed"
    ? CircleAlert
    : message.state === "ignored"
    ? Ban
    : Check;
  return (
    <div
      className="sim-row sim-row-out"
      data-testid="simulator-own-message"
      data-state={message.state}
    >
      <div className="sim-line">
        {message.wid && !message.revoked && actionsEnabled
          ? (
            <BubbleMenu label={t("simulator.chat.messageActions")}>
              <Item
                icon={<Pencil size={16} aria-hidden="true" />}
                onSelect={onEdit}
                disabled={Boolean(message.media)}
              >
                {t("simulator.chat.edit")}
              </Item>
              <Item icon={<Trash2 size={16} aria-hidden="true" />} onSelect={onRevoke}>
                {t("simulator.chat.revoke")}
              </Item>
            </BubbleMenu>
          )
          : null}
        <div className={`sim-bubble sim-out${message.revoked ? " sim-revoked" : ""}`}>
          {quoted && !message.revoked
            ? (
              <div className="sim-quoted">
                {quoted.body ? plainText(quoted.body) : quoted.media?.filename}
              </div>
            )
            : null}
          {message.revoked
            ? (
              <span className="sim-deleted">
                <Ban size={14} aria-hidden="true" /> {t("simulator.chat.youRevoked")}
              </span>
            )
            : (
              <>
                {message.media
                  ? (
                    <MediaChip
                      kind={message.media.kind}
                      filename={message.media.filename}
                      size={message.media.size}
                    />
                  )
                  : null}
                {message.body ? <span className="sim-text">{waText(message.body)}</span> : null}
              </>
            )}
          <span className="sim-meta">
            {message.edited ? <em>{t("simulator.chat.edited")}</em> : null}
            {time(message.at)}
            <span
              className={`sim-state sim-state-${message.state}`}
              title={t(`simulator.state.${message.state}`)}
            >
              <StateIcon size={14} aria-label={t(`simulator.state.${message.state}`)} />
            </span>
          </span>
        </div>
      </div>
      {message.state === "failed" && !message.media
        ? (
          <button type="button" className="sim-retry" onClick={onRetry}>
            <RotateCcw size={14} aria-hidden="true" />
            {t("simulator.chat.retry")}
          </button>
        )
        : null}
    </div>
  );
}

/** A message the company sent to the contact: left side, with its ack. */
export function CompanyBubble(
  { message, onReply, onRead, actionsEnabled }: {
    message: SentItem;
    onReply: () => void;
    onRead: () => void;
    actionsEnabled: boolean;
  },
) {
  const { t } = useTranslation();
  const state = ackState(message.ack);
  const AckIcon = state === "sent" || state === "pending" ? Check : CheckCheck;
  return (
    <div
      className="sim-row sim-row-in"
      data-testid="simulator-company-message"
      data-ack={message.ack}
    >
      <div className="sim-line">
        <div className={`sim-bubble sim-in${message.deleted ? " sim-revoked" : ""}`}>
          {message.deleted
            ? (
              <span className="sim-deleted">
                <Ban size={14} aria-hidden="true" /> {t("simulator.chat.companyRevoked")}
              </span>
            )
            : (
              <>
                {message.forwarded
                  ? (
                    <span className="sim-forwarded" data-testid="simulator-forwarded">
                      <Forward size={13} aria-hidden="true" /> {t("simulator.chat.forwarded")}
                    </span>
                  )
                  : null}
                {message.media
                  ? (
                    <MediaChip
                      kind={mediaKind(message.media.mimetype)}
                      filename={message.media.filename}
                      size={message.media.size}
                      ptt={message.media.ptt}
                    />
                  )
                  : null}
                {message.body ? <span className="sim-text">{waText(message.body)}</span> : null}
              </>
            )}
          <span className="sim-meta">
            {message.edited && !message.deleted
              ? <em data-testid="simulator-edited">{t("simulator.chat.edited")}</em>
              : null}
            {time(Date.parse(message.createdAt))}
            <span className={`sim-ack sim-ack-${state}`} title={t(`simulator.ack.${state}`)}>
              <AckIcon size={14} aria-label={t(`simulator.ack.${state}`)} />
            </span>
          </span>
        </div>
        {!message.deleted && actionsEnabled
          ? (
            <BubbleMenu label={t("simulator.chat.messageActions")}>
              <Item icon={<Reply size={16} aria-hidden="true" />} onSelect={onReply}>
                {t("simulator.chat.reply")}
              </Item>
              <Item
                icon={<CheckCheck size={16} aria-hidden="true" />}
                onSelect={onRead}
                disabled={message.ack >= 3}
              >
                {t("simulator.chat.markRead")}
              </Item>
            </BubbleMenu>
          )
          : null}
      </div>
    </div>
  );
}
