import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { api } from "../api.ts";
import { languageOf } from "../i18n.ts";
import type { StorageStatus } from "../../../contract/types.ts";
import { icon } from "../ui/icon.tsx";

const HardDrive = icon("hard-drive");

/** How often the shell asks again while a page stays open. */
export const STORAGE_CHECK_MS = 60_000;

/**
 * The admins' banner (issue 34): the server's storage is failing (writes refused), or its free
 * space fell under the threshold (STORAGE_WARN_BYTES / STORAGE_WARN_PERCENT). Asked on load and
 * every minute; quiet when the answer cannot be had. What to do depends on who reads it (issue
 * 50 item 15): a company's admin cannot free the server's disk and is told to ask their provider;
 * the operator (a super user) is told what to free. Sizes in the reader's number format.
 */
export function StorageWarning({ enabled, operator }: { enabled: boolean; operator: boolean }) {
  const { t, i18n } = useTranslation();
  const [status, setStatus] = useState<StorageStatus | null>(null);
  useEffect(() => {
    if (!enabled) return;
    let alive = true;
    const check = () =>
      api.get<StorageStatus>("/storage", { quiet: true })
        .then((answer) => alive && setStatus(answer))
        .catch(() => {});
    check();
    const timer = setInterval(check, STORAGE_CHECK_MS);
    return () => {
      alive = false;
      clearInterval(timer);
    };
  }, [enabled]);
  if (!enabled || !status) return null;
  const failing = status.state !== "ok";
  if (!failing && !status.low) return null;
  const gb = status.freeBytes / 1024 ** 3;
  const number = new Intl.NumberFormat(languageOf(i18n), {
    minimumFractionDigits: gb >= 1 ? 1 : 0,
    maximumFractionDigits: gb >= 1 ? 1 : 0,
  });
  // A no-break space: the number and its unit never part at a line's end.
  const free = gb >= 1
    ? `${number.format(gb)}\u00a0GB`
    : `${number.format(Math.floor(status.freeBytes / 1024 ** 2))}\u00a0MB`;
  const situation = status.state === "full"
    ? t("shell.storage.full")
    : status.state === "unavailable"
    ? t("shell.storage.unavailable")
    : t("shell.storage.low", { free });
  const text = `${situation} ${
    t(operator ? "shell.storage.operatorAction" : "shell.storage.adminAction")
  }`;
  return (
    <div className="subscription-warning" role="status" data-testid="storage-warning">
      <HardDrive size={16} aria-hidden="true" />
      {text}
    </div>
  );
}
