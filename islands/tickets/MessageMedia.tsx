import { useState } from "react";
import * as Dialog from "radix-ui/dialog";
import { useTranslation } from "react-i18next";
import { toast } from "../lib/toast.ts";
import { Avatar } from "./bits.tsx";
import { parseLocation, parseVcard } from "./format.ts";
import { downloadMedia, useMediaUrl } from "./media.ts";
import type { MessageBase } from "../../contract/ticket_types.ts";
import { icon } from "../lib/ui/icon.tsx";

const Download = icon("download");
const FileText = icon("file-text");
const ImageOff = icon("image-off");
const LoaderCircle = icon("loader-circle");
const MapPin = icon("map-pin");
const Phone = icon("phone");
const X = icon("x");

function Loading() {
  return (
    <div className="mm-loading" aria-busy="true">
      <LoaderCircle size={20} className="spin" aria-hidden="true" />
    </div>
  );
}

function Failed() {
  const { t } = useTranslation();
  return (
    <div className="mm-failed">
      <ImageOff size={18} aria-hidden="true" />
      {t("tickets.media.failed")}
    </div>
  );
}

function ImageMedia({ src, name }: { src: string; name: string }) {
  const { t } = useTranslation();
  const media = useMediaUrl(src);
  const [zoom, setZoom] = useState(false);
  if (media.loading) return <Loading />;
  if (media.error || !media.url) return <Failed />;
  return (
    <>
      <button
        type="button"
        className="mm-image-btn"
        onClick={() => setZoom(true)}
        aria-label={t("tickets.media.openImage")}
      >
        <img className="mm-image" src={media.url} alt={name} data-testid="message-image" />
      </button>
      <Dialog.Root open={zoom} onOpenChange={setZoom}>
        <Dialog.Portal>
          <Dialog.Overlay className="dialog-overlay" />
          <Dialog.Content className="mm-lightbox">
            <Dialog.Title className="visually-hidden">{name}</Dialog.Title>
            <Dialog.Description className="visually-hidden">{name}</Dialog.Description>
            <img src={media.url} alt={name} />
            <Dialog.Close className="icon-btn mm-lightbox-close" aria-label={t("common.close")}>
              <X size={20} aria-hidden="true" />
            </Dialog.Close>
          </Dialog.Content>
        </Dialog.Portal>
      </Dialog.Root>
    </>
  );
}

function PlayerMedia({ src, kind }: { src: string; kind: "audio" | "video" }) {
  const media = useMediaUrl(src);
  if (media.loading) return <Loading />;
  if (media.error || !media.url) return <Failed />;
  return kind === "audio"
    ? <audio className="mm-audio" controls preload="metadata" src={media.url} />
    : <video className="mm-video" controls preload="metadata" src={media.url} />;
}

function DocumentMedia({ src, name }: { src: string; name: string }) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  const download = async () => {
    setBusy(true);
    try {
      await downloadMedia(src, name);
    } catch (error) {
      toast.error(error);
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="mm-doc">
      <FileText size={28} aria-hidden="true" />
      <span className="mm-doc-name" title={name}>{name}</span>
      <button
        type="button"
        className="btn btn-secondary mm-doc-btn"
        onClick={download}
        disabled={busy}
        data-testid="message-download"
      >
        <Download size={15} aria-hidden="true" />
        {t("tickets.media.download")}
      </button>
    </div>
  );
}

export function LocationCard({ body }: { body: string }) {
  const { t } = useTranslation();
  const place = parseLocation(body);
  if (!place) return null;
  return (
    <a className="mm-card" href={place.url} target="_blank" rel="noopener noreferrer">
      <span className="mm-card-icon">
        <MapPin size={20} aria-hidden="true" />
      </span>
      <span className="mm-card-text">
        <strong>{place.description || t("tickets.media.location")}</strong>
        <span>{t("tickets.media.openMap")}</span>
      </span>
    </a>
  );
}

export function VcardCard({ body }: { body: string }) {
  const { t } = useTranslation();
  const card = parseVcard(body);
  if (!card) return null;
  return (
    <div className="mm-card">
      <Avatar name={card.name || card.number} size={40} />
      <span className="mm-card-text">
        <strong>{card.name || t("tickets.media.contact")}</strong>
        <span>
          <Phone size={12} aria-hidden="true" /> {card.number}
        </span>
      </span>
    </div>
  );
}

/** Whether a message is drawn as a card or player rather than as its text. */
export function hasMedia(message: MessageBase): boolean {
  return message.mediaType === "locationMessage" || message.mediaType === "vcard" ||
    message.mediaPending === true ||
    (!!message.mediaUrl && message.mediaType !== "call_log");
}

/** Media the server could not store yet (its storage failed): it comes by itself (issue 34). */
function PendingMedia() {
  const { t } = useTranslation();
  return (
    <div className="mm-failed" data-media-pending="">
      <LoaderCircle size={18} aria-hidden="true" />
      {t("tickets.media.pending")}
    </div>
  );
}

/**
 * A message's media (seeds/000 section 2): image (opens large), audio player, video, document
 * download, location and contact card.
 */
export function MessageMedia({ message }: { message: MessageBase }) {
  const name = message.mediaName || message.body || "file";
  if (message.mediaType === "locationMessage") return <LocationCard body={message.body} />;
  if (message.mediaType === "vcard") return <VcardCard body={message.body} />;
  if (message.mediaPending) return <PendingMedia />;
  if (!message.mediaUrl) return null;
  switch (message.mediaType) {
    case "image":
      return <ImageMedia src={message.mediaUrl} name={name} />;
    case "audio":
      return <PlayerMedia src={message.mediaUrl} kind="audio" />;
    case "video":
      return <PlayerMedia src={message.mediaUrl} kind="video" />;
    default:
      return <DocumentMedia src={message.mediaUrl} name={name} />;
  }
}
