import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import type { TFunction } from "i18next";
import { type Language, languageOf, LOCALE_TAGS } from "../i18n.ts";
import { logout } from "../session.ts";
import { can } from "../permissions.ts";
import { STORAGE, storedVolume, writeStorage } from "../storage.ts";
import type { SessionUser } from "../../../contract/types.ts";
import { IconButton } from "../ui/Button.tsx";
import { Popover } from "../ui/Popover.tsx";
import { richText } from "../ui/rich_text.tsx";
import { Menu, MenuItem, MenuLabel, MenuSeparator } from "../ui/Menu.tsx";
import { whenOpen } from "../ui/deferred.tsx";
import { LanguageMenu, ThemeToggle } from "./Preferences.tsx";
import { AnnouncementsBell, ChatBell, SlaBell, TicketsBell } from "./Bells.tsx";
import { icon } from "../ui/icon.tsx";

const CircleUserRound = icon("circle-user-round");
const LogOut = icon("log-out");
const MenuIcon = icon("menu");
const RotateCw = icon("rotate-cw");
const UserRound = icon("user-round");
const Volume1 = icon("volume-1");
const Volume2 = icon("volume-2");
const VolumeX = icon("volume-x");
const ShieldCheck = icon("shield-check");
// Loaded when opened: the form, its dialog and rules are not needed to paint the shell.
const ProfileDialog = whenOpen(() => import("./ProfileDialog.tsx").then((m) => m.ProfileDialog));
const SecurityDialog = whenOpen(() => import("./SecurityDialog.tsx").then((m) => m.SecurityDialog));

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

function AccountMenu({ user }: { user: SessionUser }) {
  const { t } = useTranslation();
  const [profileOpen, setProfileOpen] = useState(false);
  const [securityOpen, setSecurityOpen] = useState(false);
  return (
    <>
      <Menu
        label={t("shell.topbar.account")}
        trigger={
          <IconButton label={t("shell.topbar.account")} data-testid="account-menu">
            <CircleUserRound size={22} aria-hidden="true" />
          </IconButton>
        }
      >
        <MenuLabel>{user.email}</MenuLabel>
        <MenuItem
          icon={<UserRound size={16} aria-hidden="true" />}
          onSelect={() => setProfileOpen(true)}
        >
          {t("shell.topbar.profile")}
        </MenuItem>
        <MenuItem
          icon={<ShieldCheck size={16} aria-hidden="true" />}
          onSelect={() => setSecurityOpen(true)}
          data-testid="account-security"
        >
          {t("shell.topbar.security")}
        </MenuItem>
        <MenuSeparator />
        <MenuItem icon={<LogOut size={16} aria-hidden="true" />} onSelect={() => void logout()}>
          {t("shell.menu.logout")}
        </MenuItem>
      </Menu>
      <ProfileDialog user={user} open={profileOpen} onOpenChange={setProfileOpen} />
      <SecurityDialog user={user} open={securityOpen} onOpenChange={setSecurityOpen} />
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
    chats: Parameters<typeof ChatBell>[0]["chats"];
  },
) {
  const { t, i18n } = useTranslation();
  const lng = languageOf(i18n);
  const chatEnabled = user?.company.plan?.useInternalChat === true;
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
                    {t("shell.topbar.activeUntil", { date: formatDate(user.company.dueDate, lng) })}
                  </span>
                )
                : null}
            </>
          )
          : <span className="skeleton greeting-skeleton" />}
      </div>
      <div className="topbar-actions">
        {/* A late company's admin may only pay (issue 29): no tickets, announcements or chats. */}
        {user && !user.restricted
          ? (
            <>
              <TicketsBell user={user} />
              {can(user, "ticket:see-all") || (user.supervisedQueueIds?.length ?? 0) > 0
                ? <SlaBell />
                : null}
              <AnnouncementsBell />
              {chatEnabled ? <ChatBell user={user} chats={chats} /> : null}
              <span className="topbar-divider" />
            </>
          )
          : null}
        <div className="topbar-prefs">
          <PreferenceButtons />
        </div>
        {user ? <AccountMenu user={user} /> : null}
      </div>
    </header>
  );
}
