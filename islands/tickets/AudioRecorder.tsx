import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { IconButton } from "../lib/ui/Button.tsx";
import { toast } from "../lib/toast.ts";
import { AUDIO_MIN_BYTES, mmss } from "./format.ts";
import { icon } from "../lib/ui/icon.tsx";

const CircleCheck = icon("circle-check");
const CircleX = icon("circle-x");
const LoaderCircle = icon("loader-circle");
const Mic = icon("mic");

/** Formats WhatsApp plays as voice notes first; the browser records the first it supports. */
const TYPES = ["audio/ogg;codecs=opus", "audio/webm;codecs=opus", "audio/mp4", "audio/webm"];
/** seeds/000 section 9: audio at 128 kbit/s. */
const BITRATE = 128_000;

function recordingType(): string | undefined {
  if (typeof MediaRecorder === "undefined") return undefined;
  return TYPES.find((type) => MediaRecorder.isTypeSupported(type));
}

function extensionOf(type: string): string {
  if (type.includes("ogg")) return "ogg";
  if (type.includes("mp4")) return "m4a";
  return "webm";
}

type Recording = {
  recorder: MediaRecorder;
  stream: MediaStream;
  chunks: Blob[];
  keep: boolean;
};

/**
 * The audio recorder (seeds/000 section 4 'Audio recording'): idle, then recording with a
 * minutes-and-seconds timer, then sent or cancelled. A recording under 10000 bytes is
 * discarded (sections 5 and 9). `onRecorded` uploads the file; `onState` lets the input hide
 * its other controls while recording.
 */
export function AudioRecorder(
  { disabled, onRecorded, onState }: {
    disabled: boolean;
    onRecorded: (file: File) => Promise<void>;
    onState: (recording: boolean) => void;
  },
) {
  const { t } = useTranslation();
  const [state, setState] = useState<"idle" | "recording" | "sending">("idle");
  const [seconds, setSeconds] = useState(0);
  const current = useRef<Recording | null>(null);

  useEffect(() => onState(state !== "idle"), [state]);
  useEffect(() => {
    if (state !== "recording") return;
    const started = Date.now();
    setSeconds(0);
    const timer = setInterval(() => setSeconds((Date.now() - started) / 1000), 250);
    return () => clearInterval(timer);
  }, [state]);
  // Leaving the ticket while recording stops the microphone and drops the recording.
  useEffect(() => () => stop(false), []);

  const stop = (keep: boolean) => {
    const rec = current.current;
    if (!rec) return;
    rec.keep = keep;
    if (rec.recorder.state !== "inactive") rec.recorder.stop();
    rec.stream.getTracks().forEach((track) => track.stop());
  };

  const start = async () => {
    const type = recordingType();
    if (!type || !navigator.mediaDevices?.getUserMedia) {
      toast.error(t("tickets.audio.unsupported"));
      return;
    }
    let stream: MediaStream;
    try {
      stream = await navigator.mediaDevices.getUserMedia({ audio: true });
    } catch {
      toast.error(t("tickets.audio.denied"));
      return;
    }
    const recorder = new MediaRecorder(stream, { mimeType: type, audioBitsPerSecond: BITRATE });
    const rec: Recording = { recorder, stream, chunks: [], keep: false };
    current.current = rec;
    recorder.ondataavailable = (event) => {
      if (event.data.size > 0) rec.chunks.push(event.data);
    };
    recorder.onstop = async () => {
      current.current = null;
      if (!rec.keep) {
        setState("idle");
        return;
      }
      const blob = new Blob(rec.chunks, { type: type.split(";")[0] });
      if (blob.size < AUDIO_MIN_BYTES) {
        toast.warning({ key: "tickets.audio.tooShort" });
        setState("idle");
        return;
      }
      setState("sending");
      const file = new File([blob], `audio-${Date.now()}.${extensionOf(type)}`, {
        type: blob.type,
      });
      try {
        await onRecorded(file);
      } finally {
        setState("idle");
      }
    };
    recorder.start(250);
    setState("recording");
  };

  if (state === "sending") {
    return (
      <span className="ar-sending" aria-busy="true">
        <LoaderCircle size={20} className="spin" aria-hidden="true" />
      </span>
    );
  }
  if (state === "recording") {
    return (
      <div className="ar" data-testid="audio-recording">
        <span className="ar-label">{t("tickets.audio.recording")}</span>
        <IconButton label={t("tickets.audio.cancel")} onClick={() => stop(false)}>
          <CircleX size={22} aria-hidden="true" className="ar-cancel" />
        </IconButton>
        <span className="ar-dot" aria-hidden="true" />
        <span className="ar-timer" role="timer" data-testid="audio-timer">{mmss(seconds)}</span>
        <IconButton label={t("tickets.audio.send")} onClick={() => stop(true)}>
          <CircleCheck size={22} aria-hidden="true" className="ar-send" />
        </IconButton>
      </div>
    );
  }
  return (
    <IconButton
      label={t("tickets.audio.record")}
      onClick={start}
      disabled={disabled}
      data-testid="audio-record"
    >
      <Mic size={20} aria-hidden="true" />
    </IconButton>
  );
}
