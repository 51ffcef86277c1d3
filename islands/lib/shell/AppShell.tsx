import { type ReactNode, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { useSignals } from "@preact/signals-react/runtime";
import {
  cachedUser,
  forgetCachedUser,
  loadSession,
  sessionUser,
  setSessionUser,
} from "../session.ts";
import { realtime, useRealtime } from "../socket.ts";
import { clearSession, readStorage, STORAGE, storedToken } from "../storage.ts";
import { afterToastShown, toast } from "../toast.ts";
import { SESSION_ENDED_QUERY, type SessionUser } from "../../../contract/types.ts";
import { can } from "../permissions.ts";
import { usePage } from "../page_context.ts";
import { PAGE_DENIED_FLASH } from "../theme.ts";
import { PAGE_DENIED_REDIRECT, pageAction } from "../../../contract/policy.ts";
import { TIME_ZONE_SETTING } from "../../../contract/time_zone_setting.ts";
import { SideMenu } from "./SideMenu.tsx";
import { TopBar } from "./TopBar.tsx";
import { lazyPart, whenOpen } from "../ui/deferred.tsx";
import type { ShellLiveState } from "./ShellLive.tsx";

// The banners (a subscription about to expire or billing-only, the server's storage failing or
// short) are rare and show after the user is known: their code loads then (issue 33).
const UserBanners = lazyPart(() => import("./Banners.tsx").then((m) => m.UserBanners));
const ShellLive = lazyPart(() => import("./ShellLive.tsx").then((m) => m.ShellLive));
const MobileDrawer = lazyPart(() => import("./MobileDrawer.tsx").then((m) => m.default));
const SecurityDialog = whenOpen(() => import("./SecurityDialog.tsx").then((m) => m.SecurityDialog));

/** A page that only some users may open (announcements: super; dashboard: admins...). */
export type PageGuard = {
  allow: (user: SessionUser) => boolean;
  /** i18n key of the toast shown before leaving. */
  message: string;
  /** Where to go, after 1 s (seeds/002 section 6 'Non-access redirect'). */
  redirectTo: string;
};

export type AppShellProps = {
  /** The page title, shown in the main area's header and the window title. */
  title: string;
  /** Buttons at the right of the page header. */
  actions?: ReactNode;
  /** "padded" (default): a header and a padded area; "full": the children take the whole area. */
  layout?: "padded" | "full";
  guard?: PageGuard;
  children?: ReactNode;
};

/** Issue 29: the pages a late company's admin may open (contract/policy.ts BILLING_SESSION_ACTIONS). */
export const BILLING_PAGES = ["/financeiro", "/subscription"];

/** How often a billing-only page asks whether the company is paid up (its socket is refused). */
export const BILLING_POLL_MS = 3000;

function onBillingPage(): boolean {
  return BILLING_PAGES.includes(globalThis.location?.pathname ?? "");
}

/**
 * The application shell every private page wraps its content in:
 *
 *   export default function TicketsPage(props: TicketsPageProps) {
 *     const { t } = useTranslation();
 *     return <AppShell title={t("tickets.title")}>...</AppShell>;
 *   }
 *
 * It sends a visitor without a token to /login, loads the user (GET /api/auth/me), opens the
 * realtime connection, and renders the children only once the user is known: inside them
 * `useUser()` (islands/lib/session.ts) is never null.
 */
export function AppShell({ title, actions, layout = "padded", guard, children }: AppShellProps) {
  useSignals();
  const { t } = useTranslation();
  const user = sessionUser.value;
  const [drawerOpen, setDrawerOpen] = useState(false);
  const [cshow, setCshow] = useState(false);

  useEffect(() => {
    if (!storedToken()) {
      location.replace("/login");
      return;
    }
    setCshow(readStorage(STORAGE.cshow) !== null);
    ShellLive.preload(); // the live lists' code comes while the user loads
    const cached = cachedUser();
    if (cached && !sessionUser.value) sessionUser.value = cached;
    loadSession().then((fresh) => {
      setCshow(readStorage(STORAGE.cshow) !== null);
      setSessionUser(fresh);
      // A billing-only session's socket is refused (issue 29): it asks /auth/me instead, below.
      if (!fresh.restricted) realtime.start();
    }).catch(() => {
      // A dead session already went to /login (api client); a network error keeps the cache.
    });
  }, []);

  useEffect(() => {
    document.title = `${title} · Balcão`;
  }, [title]);

  // The company or the platform requires two-factor and it is off (issue 30): the session reaches
  // nothing but turning it on (the server refuses the rest), so that is all the page shows.
  const mustEnable = user?.twoFactor?.mustEnable === true;
  // Issue 29: a late company's admin may only pay; any other page goes to /financeiro, and the
  // page asks the server until the company is paid up, then turns into the normal app.
  const restricted = user?.restricted === "billing";
  useEffect(() => {
    if (!restricted) return;
    if (!onBillingPage()) {
      location.replace("/financeiro");
      return;
    }
    const timer = setInterval(() => {
      loadSession().then((fresh) => {
        if (fresh.restricted) return;
        clearInterval(timer);
        toast.success({ key: "shell.billingOnlyDone" });
        realtime.start();
      }).catch(() => {});
    }, BILLING_POLL_MS);
    return () => clearInterval(timer);
  }, [restricted]);

  // Who may open this page is the menu's rule (PAGE_ACTIONS): a role without it leaves at once,
  // nothing of the page rendered (the head script usually left before the first paint already).
  const { path } = usePage();
  const action = pageAction(path);
  const roleAllowed = !user || !action || can(user, action);
  const allowed = roleAllowed &&
    (!user || (!guard || guard.allow(user)) && (!restricted || onBillingPage()));
  useEffect(() => {
    if (roleAllowed || restricted) return;
    sessionStorage.setItem(PAGE_DENIED_FLASH, "1");
    location.replace(PAGE_DENIED_REDIRECT);
  }, [roleAllowed]);
  useEffect(() => {
    if (!sessionStorage.getItem(PAGE_DENIED_FLASH)) return;
    sessionStorage.removeItem(PAGE_DENIED_FLASH);
    toast.warning({ key: "errors.accessDenied" });
  }, []);
  useEffect(() => {
    if (!user || allowed || !guard || !roleAllowed || restricted) return;
    toast.warning({ key: guard.message });
    return afterToastShown(1000, () => location.replace(guard.redirectTo));
  }, [user?.id, allowed, roleAllowed]);

  // seeds/000 section 4: a login of this user elsewhere ends this session, after 1 s.
  useRealtime("auth", (data) => {
    if (!user) return;
    if (data.action === "sessionEnded") {
      // Sent to this user's room only: their password changed, every session of theirs ended;
      // or (issue 30) to this session's sockets only: the user or an admin ended it.
      const one = data.reason === "endedByUser" || data.reason === "endedByAdmin";
      toast.warning({ key: one ? "shell.sessionClosed" : "shell.sessionEnded" });
      afterToastShown(1000, () => {
        realtime.stop();
        forgetCachedUser();
        clearSession();
        // Issue 50 item 14: the login page says why this tab landed there.
        location.assign(one ? `/login?${SESSION_ENDED_QUERY}` : "/login");
      });
      return;
    }
    if (data.user.id !== user.id) return;
    toast.warning({ key: "shell.otherLogin" });
    afterToastShown(1000, () => {
      realtime.stop();
      // If this same browser is the one that logged in again, its new token must survive.
      forgetCachedUser();
      if (storedToken() === realtime.token) {
        clearSession();
        // The reload of a private page would lead there anyway (without a token).
        location.assign("/login");
      } else {
        location.reload();
      }
    });
  });

  // The company's plan or data changed (a super user moved it to another plan, edited its plan or
  // its due date): read the session again, so the menu and page guards follow without a login.
  useRealtime("plan", () => {
    if (user) loadSession().catch(() => {});
  });
  useRealtime("company", () => {
    if (user) loadSession().catch(() => {});
  });
  // The company's clock follows its time-zone setting at once (lib/clock.ts reads the session).
  useRealtime("settings", (data) => {
    if (user && data.setting.key === TIME_ZONE_SETTING) loadSession().catch(() => {});
  });

  // The server says the user changed (name, profile, queues): keep the shell current.
  useRealtime("user", (data) => {
    if (user && data.action === "update" && data.record.id === user.id) {
      loadSession().catch(() => {});
    }
  });
  // A deleted queue takes its memberships with it, supervision included (issue 43.6): the bells
  // and the menu follow at once, as when an admin changes the user.
  useRealtime("queue", (data) => {
    if (!user || data.action !== "delete") return;
    const member = user.queues.some((q) => q.id === data.queueId) ||
      user.supervisedQueueIds?.includes(data.queueId);
    if (member) loadSession().catch(() => {});
  });

  // The alert marks the connections entry of the menu: fetched for those who see it (ShellLive).
  const [live, setLive] = useState<ShellLiveState>({
    connectionsAlert: false,
    chats: [],
    unreadChat: false,
  });
  const chats = live.chats;
  const markers = { connections: live.connectionsAlert, chat: user ? live.unreadChat : false };

  return (
    <div className="shell">
      {user
        ? (
          <ShellLive
            userId={user.id}
            connections={can(user, "connection:manage")}
            chats={user.company.plan?.useInternalChat === true && !restricted}
            onChange={setLive}
          />
        )
        : null}
      <aside className="drawer" aria-label={t("shell.menu.label")}>
        <div className="brand">
          <span className="brand-mark" aria-hidden="true">B</span>
          <span className="brand-name">Balcão</span>
        </div>
        <SideMenu user={user} cshow={cshow} markers={markers} />
      </aside>
      {/* Under 600 px the drawer is a temporary overlay (seeds/000 section 9), loaded when opened. */}
      {drawerOpen
        ? (
          <MobileDrawer onClose={() => setDrawerOpen(false)}>
            <SideMenu user={user} cshow={cshow} markers={markers} />
          </MobileDrawer>
        )
        : null}
      <div className="shell-main">
        <TopBar user={user} chats={chats} onOpenMenu={() => setDrawerOpen(true)} />
        {user ? <UserBanners user={user} /> : null}
        <main className={`page page-${layout}`} id="main">
          {layout === "padded"
            ? (
              <div className="page-header">
                <h1 className="page-title">{title}</h1>
                {actions && user && allowed ? <div className="page-actions">{actions}</div> : null}
              </div>
            )
            : <h1 className="visually-hidden">{title}</h1>}
          {user && allowed && !mustEnable
            ? <div className="page-body">{children}</div>
            : <div className="page-body page-loading" aria-busy="true" />}
          {user && mustEnable
            ? <SecurityDialog user={user} open required onOpenChange={() => {}} />
            : null}
        </main>
      </div>
    </div>
  );
}
