import { useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { usePage } from "../page_context.ts";
import { logout } from "../session.ts";
import type { SessionUser } from "../../../contract/types.ts";
import { isActive, menuFor, type MenuGroup, type MenuLink } from "./menu.ts";
import { icon } from "../ui/icon.tsx";

const ChevronDown = icon("chevron-down");
const LogOut = icon("log-out");

export type Markers = { connections: boolean; chat: boolean };

function Link({ item, path, markers }: { item: MenuLink; path: string; markers: Markers }) {
  const { t } = useTranslation();
  const Icon = item.icon;
  const active = isActive(item.href, path);
  const marked = item.marker ? markers[item.marker] : false;
  return (
    <a
      href={item.href}
      className={`nav-link${active ? " active" : ""}`}
      aria-current={active ? "page" : undefined}
      data-menu={item.id}
    >
      <span className="nav-icon">
        <Icon size={20} aria-hidden="true" />
        {marked && item.marker === "connections"
          ? (
            <span
              className="badge nav-badge"
              data-testid="connections-alert"
              title={t("shell.menu.connectionsAlert")}
            >
              !
            </span>
          )
          : null}
        {marked && item.marker === "chat"
          ? <span className="dot" data-testid="chat-dot" title={t("shell.menu.chatUnread")} />
          : null}
      </span>
      <span className="nav-text">{t(`shell.menu.${item.id}`)}</span>
    </a>
  );
}

function Group({ group, path, markers }: { group: MenuGroup; path: string; markers: Markers }) {
  const { t } = useTranslation();
  return (
    <div className="nav-group" data-group={group.id}>
      <div className="nav-group-title" role="heading" aria-level={2}>
        {t(`shell.menu.groups.${group.id}`)}
      </div>
      {group.items.map((item) =>
        item.kind === "link"
          ? <Link key={item.id} item={item} path={path} markers={markers} />
          : (
            <Submenu
              key={item.id}
              id={item.id}
              items={item.items}
              icon={item.icon}
              path={path}
              markers={markers}
            />
          )
      )}
    </div>
  );
}

function Submenu(
  { id, items, icon: Icon, path, markers }: {
    id: string;
    items: MenuLink[];
    icon: MenuGroup["items"][number]["icon"];
    path: string;
    markers: Markers;
  },
) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(items.some((item) => isActive(item.href, path)));
  const contentId = useId();
  const state = open ? "open" : "closed";
  // A disclosure button (what radix's Collapsible renders) written out: radix's collapsible and
  // presence code would be on every page's first load for this one toggle (issue 33).
  return (
    <div data-state={state}>
      <button
        type="button"
        className="nav-link nav-submenu-trigger"
        data-menu={id}
        data-state={state}
        aria-controls={contentId}
        aria-expanded={open}
        onClick={() => setOpen(!open)}
      >
        <span className="nav-icon">
          <Icon size={20} aria-hidden="true" />
        </span>
        <span className="nav-text">{t(`shell.menu.${id}`)}</span>
        <ChevronDown size={16} className="nav-chevron" aria-hidden="true" />
      </button>
      {open
        ? (
          <div id={contentId} className="nav-submenu" data-state={state}>
            {items.map((item) => <Link key={item.id} item={item} path={path} markers={markers} />)}
          </div>
        )
        : null}
    </div>
  );
}

/** The drawer's content: the groups for this user, then the logout item. */
export function SideMenu(
  { user, cshow, markers }: { user: SessionUser | null; cshow: boolean; markers: Markers },
) {
  const { t } = useTranslation();
  const { path } = usePage();
  return (
    <nav className="nav" aria-label={t("shell.menu.label")}>
      <div className="nav-scroll">
        {user
          ? menuFor({ user, cshow }).map((group) => (
            <Group key={group.id} group={group} path={path} markers={markers} />
          ))
          : (
            <div className="nav-group" aria-busy="true">
              {Array.from(
                { length: 7 },
                (_, i) => <div key={i} className="skeleton nav-skeleton" />,
              )}
            </div>
          )}
      </div>
      <div className="nav-footer">
        <button type="button" className="nav-link" onClick={() => void logout()} data-menu="logout">
          <span className="nav-icon">
            <LogOut size={20} aria-hidden="true" />
          </span>
          <span className="nav-text">{t("shell.menu.logout")}</span>
        </button>
      </div>
    </nav>
  );
}
