import { type ChangeEvent, type KeyboardEvent, useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { api } from "../lib/api.ts";
import { toast } from "../lib/toast.ts";
import { Button, IconButton } from "../lib/ui/Button.tsx";
import { Field } from "../lib/ui/Field.tsx";
import { Menu, MenuItem, MenuSeparator } from "../lib/ui/Menu.tsx";
import { whenOpen } from "../lib/ui/deferred.tsx";
import { type Connection, normalStatus } from "../../contract/connection.ts";
import { CompanyBubble, ContactBubble } from "./Bubbles.tsx";
import {
  clearOwn,
  fileToBase64,
  formatPhone,
  initials,
  loadOwn,
  mediaKind,
  type OwnMessage,
  saveOwn,
  type SentItem,
  timeline,
  validPhone,
} from "./model.ts";
import { icon } from "../lib/ui/icon.tsx";

const CheckCheck = icon("check-check");
const ContactIcon = icon("contact");
const EllipsisVertical = icon("ellipsis-vertical");
const FileUp = icon("file-up");
const MapPin = icon("map-pin");
const Paperclip = icon("paperclip");
const Phone = icon("phone");
const Reply = icon("reply");
const SendHorizontal = icon("send-horizontal");
const Trash2 = icon("trash-2");
const Unlink = icon("unlink");
const Video = icon("video");
const X = icon("x");

// Dialogs load when opened (deferred.tsx): the chat paints without them.
const Modal = whenOpen(() => import("../lib/ui/Modal.tsx").then((m) => m.Modal));
const ConfirmDialog = whenOpen(() =>
  import("../lib/ui/ConfirmDialog.tsx").then((m) => m.ConfirmDialog)
);

/** Seeds/000 section 9 allows polling: what the company sent is read again every second. */
export const SENT_POLL_MS = 1000;

/**
 * JSON bodies are capped (BODY_LIMIT_BYTES, 1 MB by default) and the simulator takes media as
 * base64 (4/3 of the size): files up to this size fit.
 */
export const MAX_FILE_BYTES = 700 * 1024;

type Answer = {
  stored: boolean;
  duplicate?: boolean;
  wid: string | null;
  ticketId: number | null;
  ignored?: string;
};

type Payload = {
  body?: string;
  media?: { base64: string; mimetype: string; filename: string };
  location?: { latitude: number; longitude: number; name?: string };
  vcard?: { name: string; number: string };
};

/** The phone screen: the conversation between the chosen contact and the connection. */
export function Chat(
  { connection, number, name, onSent }: {
    connection: Connection;
    /** The contact's digits, or null while the typed number is not valid. */
    number: string | null;
    name: string;
    onSent: () => void;
  },
) {
  const { t } = useTranslation();
  const id = connection.id;
  const connected = normalStatus(connection.status) === "CONNECTED";
  const [own, setOwn] = useState<OwnMessage[]>(() => number ? loadOwn(id, number) : []);
  const [sent, setSent] = useState<SentItem[]>([]);
  const [text, setText] = useState("");
  const [quoted, setQuoted] = useState<SentItem | null>(null);
  const [editing, setEditing] = useState<OwnMessage | null>(null);
  const [editText, setEditText] = useState("");
  const [vcardOpen, setVcardOpen] = useState(false);
  const [vcard, setVcard] = useState({ name: "", number: "" });
  const [confirmClear, setConfirmClear] = useState(false);
  const [confirmUnlink, setConfirmUnlink] = useState(false);
  const fileInput = useRef<HTMLInputElement>(null);
  const scroller = useRef<HTMLDivElement>(null);
  const stick = useRef(true);

  useEffect(() => {
    if (number) saveOwn(id, number, own);
  }, [own]);

  // What the company sent to this number, with acks: polled while visible.
  useEffect(() => {
    if (!number) return;
    let stopped = false;
    let inFlight = false;
    const poll = async () => {
      if (inFlight || document.hidden) return;
      inFlight = true;
      try {
        const answer = await api.get<{ sent: SentItem[] }>(`/simulator/${id}/sent`, {
          query: { to: number, limit: 1000 },
          quiet: true,
        });
        if (!stopped) setSent((old) => same(old, answer.sent) ? old : answer.sent);
      } catch {
        // a connection that went away or a blip: the next tick tries again
      } finally {
        inFlight = false;
      }
    };
    void poll();
    const timer = setInterval(() => void poll(), SENT_POLL_MS);
    return () => {
      stopped = true;
      clearInterval(timer);
    };
  }, [id, number]);

  const items = timeline(own, sent);
  const lastKey = items.length ? itemKey(items[items.length - 1]) : "";
  useEffect(() => {
    const el = scroller.current;
    if (el && stick.current) el.scrollTop = el.scrollHeight;
  }, [lastKey, items.length]);

  const onScroll = () => {
    const el = scroller.current;
    if (el) stick.current = el.scrollHeight - el.scrollTop - el.clientHeight < 80;
  };

  const patch = (key: string, change: Partial<OwnMessage>) =>
    setOwn((list) => list.map((m) => m.key === key ? { ...m, ...change } : m));

  const deliver = async (payload: Payload, display: Partial<OwnMessage>) => {
    if (!number) return;
    const key = crypto.randomUUID();
    const quotedId = quoted?.id;
    const message: OwnMessage = {
      key,
      wid: null,
      body: payload.body ?? "",
      at: Date.now(),
      state: "sending",
      ...(quotedId ? { quotedId } : {}),
      ...display,
    };
    stick.current = true;
    setOwn((list) => [...list, message]);
    setQuoted(null);
    try {
      const answer = await api.post<Answer>(`/simulator/${id}/messages`, {
        from: number,
        ...(name ? { name } : {}),
        ...payload,
        ...(quotedId ? { quotedId } : {}),
      }, { quiet: true });
      patch(key, {
        wid: answer.wid,
        state: answer.stored ? "stored" : "ignored",
        duplicate: answer.duplicate === true,
      });
      onSent();
    } catch (error) {
      patch(key, { state: "failed" });
      toast.error(error);
    }
  };

  const sendText = () => {
    const body = text.trim();
    // seeds/000 section 5: empty or blank text is not sent.
    if (!body) return;
    setText("");
    void deliver({ body }, {});
  };

  const onKey = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === "Enter" && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      sendText();
    }
  };

  const onFile = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = "";
    if (!file) return;
    if (file.size > MAX_FILE_BYTES) {
      toast.warning({ key: "simulator.chat.fileTooLarge", values: { max: "700 KB" } });
      return;
    }
    const mimetype = file.type || "application/octet-stream";
    const caption = text.trim();
    setText("");
    const base64 = await fileToBase64(file);
    void deliver(
      { body: caption, media: { base64, mimetype, filename: file.name } },
      { media: { mimetype, filename: file.name, size: file.size, kind: mediaKind(mimetype) } },
    );
  };

  const sendLocation = () => {
    // A fixed, recognisable spot: the point is to see how the company side shows a location.
    const location = { latitude: -23.561414, longitude: -46.655881, name: "Avenida Paulista" };
    void deliver({ location }, { body: `📍 ${location.name}` });
  };

  const sendVcard = () => {
    if (!vcard.name.trim() || !validPhone(vcard.number)) return;
    const card = { name: vcard.name.trim(), number: vcard.number.replace(/\D/g, "") };
    setVcardOpen(false);
    setVcard({ name: "", number: "" });
    void deliver({ vcard: card }, { body: `👤 ${card.name} · ${formatPhone(card.number)}` });
  };

  const phoneAction = async (
    path: string,
    body: Record<string, unknown>,
    done?: (answer: Record<string, unknown>) => void,
  ) => {
    try {
      const answer = await api.post<Record<string, unknown>>(`/simulator/${id}/${path}`, body);
      done?.(answer);
    } catch {
      // the api client showed the error
    }
  };

  const call = (isVideo: boolean) =>
    phoneAction("call", { from: number, isVideo }, (answer) => {
      toast.info({
        key: answer.rejected ? "simulator.chat.callRejected" : "simulator.chat.callMade",
      });
    });

  const readAll = () =>
    phoneAction("read", { to: number }, (answer) => {
      toast.info({ key: "simulator.chat.readDone", values: { count: Number(answer.read ?? 0) } });
    });

  const readOne = (item: SentItem) => phoneAction("read", { to: number, ids: [item.id] });

  const revoke = (message: OwnMessage) => {
    if (!message.wid) return;
    void phoneAction("revoke", { from: number, id: message.wid }, () => {
      patch(message.key, { revoked: true });
    });
  };

  const saveEdit = () => {
    const message = editing;
    const body = editText.trim();
    if (!message?.wid || !body) return;
    setEditing(null);
    void phoneAction("edit", { from: number, id: message.wid, body }, () => {
      patch(message.key, { body, edited: true });
    });
  };

  const unlink = () =>
    phoneAction("unlink", {}, () => toast.info({ key: "simulator.chat.unlinked" }));

  const clearHistory = () => {
    if (number) clearOwn(id, number);
    setOwn([]);
  };

  const ready = connected && number !== null;
  const title = name || (number ? formatPhone(number) : t("simulator.chat.noContact"));

  return (
    <div className="sim-phone" data-testid="simulator-chat">
      <header className="sim-phone-bar">
        <span className="avatar" aria-hidden="true">{initials(name, number ?? "?")}</span>
        <div className="sim-phone-who">
          <strong>{title}</strong>
          <small>
            {t("simulator.chat.talkingTo", { name: connection.name })}
          </small>
        </div>
        <div className="sim-phone-actions">
          <IconButton
            label={t("simulator.chat.call")}
            disabled={!ready}
            onClick={() => void call(false)}
            data-testid="simulator-call"
          >
            <Phone size={18} aria-hidden="true" />
          </IconButton>
          <IconButton
            label={t("simulator.chat.videoCall")}
            disabled={!ready}
            onClick={() => void call(true)}
          >
            <Video size={18} aria-hidden="true" />
          </IconButton>
          <IconButton
            label={t("simulator.chat.readAll")}
            disabled={!ready}
            onClick={() => void readAll()}
            data-testid="simulator-read"
          >
            <CheckCheck size={18} aria-hidden="true" />
          </IconButton>
          <Menu
            label={t("simulator.chat.more")}
            trigger={
              <IconButton label={t("simulator.chat.more")}>
                <EllipsisVertical size={18} aria-hidden="true" />
              </IconButton>
            }
          >
            <MenuItem
              icon={<Trash2 size={16} aria-hidden="true" />}
              onSelect={() => setConfirmClear(true)}
              disabled={own.length === 0}
            >
              {t("simulator.chat.clear")}
            </MenuItem>
            <MenuSeparator />
            <MenuItem
              icon={<Unlink size={16} aria-hidden="true" />}
              onSelect={() => setConfirmUnlink(true)}
              disabled={!connected}
            >
              {t("simulator.chat.unlink")}
            </MenuItem>
          </Menu>
        </div>
      </header>

      <div
        className="sim-messages"
        ref={scroller}
        onScroll={onScroll}
        data-testid="simulator-messages"
        aria-live="polite"
      >
        {!connected
          ? <div className="sim-notice">{t("simulator.chat.notConnected")}</div>
          : !number
          ? <div className="sim-notice">{t("simulator.chat.typeNumber")}</div>
          : items.length === 0
          ? <div className="sim-notice">{t("simulator.chat.empty")}</div>
          : null}
        {items.map((item) =>
          item.side === "contact"
            ? (
              <ContactBubble
                key={itemKey(item)}
                message={item.message}
                quoted={sent.find((s) => s.id === item.message.quotedId) ?? null}
                onEdit={() => {
                  setEditing(item.message);
                  setEditText(item.message.body);
                }}
                onRevoke={() => revoke(item.message)}
                onRetry={() => {
                  setOwn((list) => list.filter((m) => m.key !== item.message.key));
                  if (!item.message.media) void deliver({ body: item.message.body }, {});
                }}
                actionsEnabled={ready}
              />
            )
            : (
              <CompanyBubble
                key={itemKey(item)}
                message={item.message}
                onReply={() => setQuoted(item.message)}
                onRead={() => void readOne(item.message)}
                actionsEnabled={ready}
              />
            )
        )}
      </div>

      {quoted
        ? (
          <div className="sim-quote-bar">
            <Reply size={16} aria-hidden="true" />
            <span className="sim-quote-text">{quoted.body || quoted.media?.filename}</span>
            <IconButton label={t("common.cancel")} onClick={() => setQuoted(null)}>
              <X size={16} aria-hidden="true" />
            </IconButton>
          </div>
        )
        : null}

      <footer className="sim-composer">
        <Menu
          align="start"
          label={t("simulator.chat.attach")}
          trigger={
            <IconButton label={t("simulator.chat.attach")} disabled={!ready}>
              <Paperclip size={20} aria-hidden="true" />
            </IconButton>
          }
        >
          <MenuItem
            icon={<FileUp size={16} aria-hidden="true" />}
            onSelect={() => fileInput.current?.click()}
          >
            {t("simulator.chat.file")}
          </MenuItem>
          <MenuItem icon={<MapPin size={16} aria-hidden="true" />} onSelect={sendLocation}>
            {t("simulator.chat.location")}
          </MenuItem>
          <MenuItem
            icon={<ContactIcon size={16} aria-hidden="true" />}
            onSelect={() => setVcardOpen(true)}
          >
            {t("simulator.chat.vcard")}
          </MenuItem>
        </Menu>
        <input
          ref={fileInput}
          type="file"
          hidden
          onChange={(e) => void onFile(e)}
          data-testid="simulator-file"
        />
        <textarea
          className="sim-input"
          rows={1}
          placeholder={t("simulator.chat.placeholder")}
          aria-label={t("simulator.chat.placeholder")}
          value={text}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={onKey}
          disabled={!ready}
          data-testid="simulator-input"
        />
        <IconButton
          label={t("simulator.chat.send")}
          className="sim-send"
          onClick={sendText}
          disabled={!ready || !text.trim()}
          data-testid="simulator-send"
        >
          <SendHorizontal size={20} aria-hidden="true" />
        </IconButton>
      </footer>

      <Modal
        open={editing !== null}
        onOpenChange={(open) => !open && setEditing(null)}
        title={t("simulator.chat.editTitle")}
        footer={
          <>
            <Button variant="ghost" onClick={() => setEditing(null)}>{t("common.cancel")}</Button>
            <Button variant="primary" onClick={saveEdit} disabled={!editText.trim()}>
              {t("common.save")}
            </Button>
          </>
        }
      >
        <textarea
          className="input textarea"
          rows={3}
          value={editText}
          onChange={(e) => setEditText(e.target.value)}
          aria-label={t("simulator.chat.editTitle")}
          autoFocus
        />
      </Modal>

      <Modal
        open={vcardOpen}
        onOpenChange={setVcardOpen}
        title={t("simulator.chat.vcardTitle")}
        footer={
          <>
            <Button variant="ghost" onClick={() => setVcardOpen(false)}>
              {t("common.cancel")}
            </Button>
            <Button
              variant="primary"
              onClick={sendVcard}
              disabled={!vcard.name.trim() || !validPhone(vcard.number)}
            >
              {t("simulator.chat.send")}
            </Button>
          </>
        }
      >
        <Field
          label={t("simulator.contact.name")}
          value={vcard.name}
          onChange={(e) => setVcard((v) => ({ ...v, name: e.target.value }))}
          autoFocus
        />
        <Field
          label={t("simulator.contact.number")}
          inputMode="tel"
          placeholder="5513912344321"
          value={vcard.number}
          onChange={(e) => setVcard((v) => ({ ...v, number: e.target.value }))}
        />
      </Modal>

      <ConfirmDialog
        open={confirmClear}
        onOpenChange={setConfirmClear}
        title={t("simulator.chat.clear")}
        description={t("simulator.chat.clearText")}
        confirmLabel={t("simulator.chat.clearConfirm")}
        danger
        onConfirm={clearHistory}
      />
      <ConfirmDialog
        open={confirmUnlink}
        onOpenChange={setConfirmUnlink}
        title={t("simulator.chat.unlink")}
        description={t("simulator.chat.unlinkText")}
        confirmLabel={t("simulator.chat.unlinkConfirm")}
        danger
        onConfirm={unlink}
      />
    </div>
  );
}

function itemKey(item: ReturnType<typeof timeline>[number]): string {
  return item.side === "contact" ? `c:${item.message.key}` : `s:${item.message.seq}`;
}

/** Same list as before (ids, acks, deletions): keeps React from re-rendering every second. */
function same(a: SentItem[], b: SentItem[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    if (
      a[i].seq !== b[i].seq || a[i].ack !== b[i].ack || a[i].deleted !== b[i].deleted ||
      a[i].body !== b[i].body
    ) {
      return false;
    }
  }
  return true;
}
