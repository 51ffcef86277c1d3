import { useTranslation } from "react-i18next";
import { normalStatus, type Status, STATUS_TONE } from "./model.ts";
import { icon, type IconComponent } from "../lib/ui/icon.tsx";

const LoaderCircle = icon("loader-circle");
const QrCode = icon("qr-code");
const Signal = icon("signal");
const Smartphone = icon("smartphone");
const TimerOff = icon("timer-off");
const WifiOff = icon("wifi-off");

const ICONS: Record<Status, IconComponent> = {
  CONNECTED: Signal,
  DISCONNECTED: WifiOff,
  TIMEOUT: TimerOff,
  PAIRING: Smartphone,
  qrcode: QrCode,
  OPENING: LoaderCircle,
};

/** A connection's status: icon and label, with what it means (and what to do) as a tooltip. */
export function StatusBadge({ status }: { status: string }) {
  const { t } = useTranslation();
  const s = normalStatus(status);
  const Icon = ICONS[s];
  return (
    <span
      className={`conn-status tone-${STATUS_TONE[s]}`}
      data-testid="connection-status"
      data-status={s}
      data-tooltip={t(`connections.statusHelp.${s}`)}
      data-tooltip-wide=""
      aria-description={t(`connections.statusHelp.${s}`)}
      tabIndex={0}
    >
      <Icon
        size={18}
        aria-hidden="true"
        className={s === "OPENING" ? "spin" : undefined}
      />
      <span>{t(`connections.status.${s}`)}</span>
    </span>
  );
}
