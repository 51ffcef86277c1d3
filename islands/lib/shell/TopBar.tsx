import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import type { TFunction } from "i18next";
import { type Language, languageOf, LOCALE_TAGS } from "../i18n.ts";
import { can } from "../permissions.ts";
import { STORAGE, storedVolume, writeStorage } from "../storage.ts";
import type { SessionUser } from "../../../contract/types.ts";
import { IconButton } from "../ui/Button.tsx";
import { Popover } from "../ui/Popover.tsx";
import { richText } from "../ui/rich_text.tsx";
import { lazyPart } from "../ui/deferred.tsx";
import { LanguageMenu, ThemeToggle } from "./Preferences.tsx";
import type { Chat } from "./chats.ts";
import { icon } from "../ui/icon.tsx";

const MenuIcon = icon("menu");
const RotateCw = icon("rotate-cw");
const Volume1 = icon("volume-1");
const Volume2 = icon("volume-2");
const VolumeX = icon("volume-x");
// Loaded when opened: the form, its dialog and rules are not needed to paint the shell.
// The bells and the account menu show once the user is known (after the first paint): their code
// loads with them, not with the page (issue 33).
const UserBells = lazyPart(() => import("./Bells.tsx").then((m) => m.UserBells));
const AccountMenu = lazyPart(() => import("./AccountMenu.tsx").then((m) => m.AccountMenu));

/**
 * "Olá <b>name</b>, ..." with the names escaped of the markers, so that a name cannot add bold.
 */
function greeting(t: TFunction, user: SessionUser): string {
  const plain = (value: string) => value.replace(/<\/?b>/g, "");
  return t("shell.topbar.greeting", { name: plain(user.name), company: plain(user.company.name) });
}

/** A date-only ISO string shown in the page's language (no time zone shift). */
export function formatDate(iso: string, lng: Language): string {
  const [y, m, d] = iso.slice(0, 10).split("-").map(Number);
  return new Intl.DateTimeFormat(LOCALE_TAGS[lng], { timeZone: "UTC" }).format(
    new Date(Date.UTC(y, m - 1, d)),
  );
}

/** Notification volume, 0 to 1 in steps of 0.1, remembered as `volume` (seeds/000 section 9). */
function VolumeControl() {
  const { t } = useTranslation();
  const [volume, setVolume] = useState<number | null>(null);
  useEffect(() => setVolume(storedVolume()), []);
  const value = volume ?? 1;
  const Icon = value === 0 ? VolumeX : value < 0.5 ? Volume1 : Volume2;
  return (
    <Popover
      className="popover-content volume-popover"
      trigger={
        <IconButton label={t("shell.topbar.volume")} data-testid="volume-button">
          <Icon size={20} aria-hidden="true" />
        </IconButton>
      }
    >
      <div className="popover-title">{t("shell.topbar.volume")}</div>
      <div className="volume-row">
        <VolumeX size={16} aria-hidden="true" />
        <input
          type="range"
          className="slider"
          min={0}
          max={1}
          step={0.1}
          value={value}
          aria-label={t("shell.topbar.volume")}
          aria-valuenow={value}
          aria-valuetext={`${Math.round(value * 100)}%`}
          data-testid="volume-slider"
          onChange={(e) => {
            const rounded = Math.round(Number(e.target.value) * 10) / 10;
            setVolume(rounded);
            writeStorage(STORAGE.volume, String(rounded));
          }}
        />
        <Volume2 size={16} aria-hidden="true" />
        <output className="volume-value" data-testid="volume-value">
          {Math.round(value * 100)}%
        </output>
      </div>
    </Popover>
  );
}

/** Volume, theme, language and refresh: in the top bar, and in the drawer on narrow screens. */
export function PreferenceButtons() {
  const { t } = useTranslation();
  return (
    <>
      <VolumeControl />
      <ThemeToggle />
      <LanguageMenu />
      <IconButton label={t("shell.topbar.refresh")} onClick={() => location.reload()}>
        <RotateCw size={20} aria-hidden="true" />
      </IconButton>
    </>
  );
}

/**
 * Top bar (seeds/000 section 2 'Top bar'): greeting with the user's and the company's names (and
 * the active-until date for admins), theme, volume, refresh, the three bells, language and the
 * account menu.
 */
export function TopBar(
  { user, onOpenMenu, chats }: {
    user: SessionUser | null;
    onOpenMenu: () => void;
    chats: Chat[];
  },
) {
  const { t, i18n } = useTranslation();
  const lng = languageOf(i18n);
  useEffect(() => {
    // Fetched while the user loads (GET /auth/me), so the bells show with the greeting.
    UserBells.preload();
    AccountMenu.preload();
  }, []);
  return (
    <header className="topbar">
      <IconButton label={t("shell.topbar.openMenu")} className="topbar-menu" onClick={onOpenMenu}>
        <MenuIcon size={22} aria-hidden="true" />
      </IconButton>
      <div className="topbar-greeting" data-testid="greeting">
        {user
          ? (
            <>
              <span className="greeting-text">
                {richText(greeting(t, user))}
              </span>
              {can(user, "invoice:pay") && user.company.dueDate
                ? (
                  <span className="greeting-due" data-testid="due-date">
                    {t("shell.topbar.activeUntil", {
                      date: formatDate(user.company.dueDate, lng),
                      // Issue 50 item 2: a late company's date is not "active until" but past
                      // (_billing: the late admin's session; the banner says trial or not).
                      context: user.restricted,
                    })}
                  </span>
                )
                : null}
            </>
          )
          : <span className="skeleton greeting-skeleton" />}
      </div>
      <div className="topbar-actions">
        {/* A late company's admin may only pay (issue 29): no tickets, announcements or chats. */}
        {user && !user.restricted ? <UserBells user={user} chats={chats} /> : null}
        <div className="topbar-prefs">
          <PreferenceButtons />
        </div>
        {user ? <AccountMenu user={user} /> : null}
      </div>
    </header>
  );
}
