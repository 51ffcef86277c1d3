import { useState } from "react";
import { useTranslation } from "react-i18next";
import { logout } from "../session.ts";
import type { SessionUser } from "../../../contract/types.ts";
import { IconButton } from "../ui/Button.tsx";
import { Menu, MenuItem, MenuLabel, MenuSeparator } from "../ui/Menu.tsx";
import { whenOpen } from "../ui/deferred.tsx";
import { icon } from "../ui/icon.tsx";

const CircleUserRound = icon("circle-user-round");
const LogOut = icon("log-out");
const UserRound = icon("user-round");
const ShieldCheck = icon("shield-check");
const ProfileDialog = whenOpen(() => import("./ProfileDialog.tsx").then((m) => m.ProfileDialog));
const SecurityDialog = whenOpen(() => import("./SecurityDialog.tsx").then((m) => m.SecurityDialog));

/**
 * The account menu of the top bar (profile, security, log out): shown once the user is known, so
 * its code loads then (TopBar.tsx), not with the page.
 */
export function AccountMenu({ user }: { user: SessionUser }) {
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
