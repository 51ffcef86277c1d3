import { useTranslation } from "react-i18next";
import * as Tooltip from "radix-ui/tooltip";
import {
  LoaderCircle,
  type LucideIcon,
  QrCode,
  Signal,
  Smartphone,
  TimerOff,
  WifiOff,
} from "lucide-react";
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
    <Tooltip.Root>
      <Tooltip.Trigger asChild>
        <span
          className={`conn-status tone-${STATUS_TONE[s]}`}
          data-testid="connection-status"
          data-status={s}
          tabIndex={0}
        >
          <Icon
            size={18}
            aria-hidden="true"
            className={s === "OPENING" ? "spin" : undefined}
          />
          <span>{t(`connections.status.${s}`)}</span>
        </span>
      </Tooltip.Trigger>
      <Tooltip.Portal>
        <Tooltip.Content className="tooltip tooltip-wide" sideOffset={6}>
          {t(`connections.statusHelp.${s}`)}
        </Tooltip.Content>
      </Tooltip.Portal>
    </Tooltip.Root>
  );
}
