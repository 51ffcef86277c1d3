import { useTranslation } from "react-i18next";
import type { LucideIcon } from "lucide-react";
import LoaderCircle from "lucide-react/icons/loader-circle";
import QrCode from "lucide-react/icons/qr-code";
import Signal from "lucide-react/icons/signal";
import Smartphone from "lucide-react/icons/smartphone";
import TimerOff from "lucide-react/icons/timer-off";
import WifiOff from "lucide-react/icons/wifi-off";
import { normalStatus, type Status, STATUS_TONE } from "./model.ts";

const ICONS: Record<Status, LucideIcon> = {
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
