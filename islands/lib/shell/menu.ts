import { type Action, can, canReadReports, hasFeature, type PlanFeature } from "../permissions.ts";
import type { SessionUser } from "../../../contract/types.ts";
import { PAGE_ACTIONS, type PagePath } from "../../../contract/policy.ts";
import { icon, type IconComponent } from "../ui/icon.tsx";

const Bot = icon("bot");
const CalendarDays = icon("calendar-days");
const CircleHelp = icon("circle-help");
const Code = icon("code");
const Contact = icon("contact");
const FileStack = icon("file-stack");
const Kanban = icon("kanban");
const LayoutDashboard = icon("layout-dashboard");
const ListChecks = icon("list-checks");
const ListTree = icon("list-tree");
const Megaphone = icon("megaphone");
const ScrollText = icon("scroll-text");
const ChartColumn = icon("chart-column");
const MessageCircle = icon("message-circle");
const MessagesSquare = icon("messages-square");
const Network = icon("network");
const Plug = icon("plug");
const Send = icon("send");
const Settings = icon("settings");
const Smartphone = icon("smartphone");
const Tag = icon("tag");
const Users = icon("users");
const Wallet = icon("wallet");
const Zap = icon("zap");

/**
 * The side menu (seeds/000 section 2 'Side menu', seeds/002 section 2.1): group 'Atendimento',
 * a management group (dashboard) and an administration group. Each entry names the action of the
 * policy table (contract/policy.ts) its page is for: it shows to the roles of that line, and a group
 * with no entry left is not shown (a plain user sees 'Atendimento' only; announcements are for
 * super users). Plan flags switch kanban, schedules, internal chat, integrations, prompts,
 * external API and campaigns; campaigns also need the stored flag cshow.
 * Labels are i18n keys under "shell.menu".
 */
export type MenuLink = {
  kind: "link";
  id: string;
  href: string;
  icon: IconComponent;
  /** Who sees the entry: the roles of this line of the policy table. */
  action: Action;
  /** A live marker: the connections alert or the internal-chat unread dot. */
  marker?: "connections" | "chat";
};

export type MenuSubmenu = {
  kind: "submenu";
  id: string;
  icon: IconComponent;
  action: Action;
  items: MenuLink[];
};

export type MenuGroup = {
  id: "service" | "management" | "administration";
  items: (MenuLink | MenuSubmenu)[];
};

/** An entry for a page: who sees it is who may open the page (PAGE_ACTIONS, contract/policy.ts). */
const link = (
  id: string,
  href: PagePath,
  icon: IconComponent,
  marker?: MenuLink["marker"],
): MenuLink => ({
  kind: "link",
  id,
  href,
  icon,
  action: PAGE_ACTIONS[href],
  ...(marker ? { marker } : {}),
});

export type MenuContext = {
  user: SessionUser;
  /** localStorage has cshow (seeds/002 section 2.1). */
  cshow: boolean;
};

export function menuFor({ user, cshow }: MenuContext): MenuGroup[] {
  const on = (flag: PlanFeature) => hasFeature(user, flag);
  const groups: MenuGroup[] = [{
    id: "service",
    items: [
      link("tickets", "/tickets", MessageCircle),
      link("quickMessages", "/quick-messages", Zap),
      ...(on("useKanban") ? [link("kanban", "/kanban", Kanban)] : []),
      link("contacts", "/contacts", Contact),
      ...(on("useSchedules") ? [link("schedules", "/schedules", CalendarDays)] : []),
      link("todolist", "/todolist", ListChecks),
      link("tags", "/tags", Tag),
      ...(on("useInternalChat") ? [link("chats", "/chats", MessagesSquare, "chat")] : []),
      link("helps", "/helps", CircleHelp),
      // The built-in phone network (DESIGN 'WhatsApp'): chat as a contact of a simulator connection.
      link("simulator", "/simulator", Smartphone),
    ],
  }, {
    id: "management",
    items: [
      link("dashboard", "/", LayoutDashboard),
      // Admins, and supervisors for their queues (the server's scope decides the rest).
      ...(canReadReports(user) ? [link("reports", "/reports", ChartColumn)] : []),
    ],
  }, {
    id: "administration",
    items: [
      ...(on("useCampaigns") && cshow
        ? [{
          kind: "submenu" as const,
          id: "campaigns",
          icon: Send,
          action: "campaign:manage" as const,
          items: [
            link("campaignsList", "/campaigns", ListChecks),
            link("contactLists", "/contact-lists", Users),
            link("campaignsConfig", "/campaigns-config", Settings),
          ],
        }]
        : []),
      link("announcements", "/announcements", Megaphone),
      ...(on("useOpenAi") ? [link("prompts", "/prompts", Bot)] : []),
      ...(on("useIntegrations") ? [link("queueIntegration", "/queue-integration", Network)] : []),
      link("connections", "/connections", Plug, "connections"),
      // File lists' API is behind useCampaigns (server/plans/features.ts): so is their entry.
      ...(on("useCampaigns") ? [link("files", "/files", FileStack)] : []),
      link("queues", "/queues", ListTree),
      link("users", "/users", Users),
      ...(on("useExternalApi") ? [link("messagesApi", "/messages-api", Code)] : []),
      link("financeiro", "/financeiro", Wallet),
      link("settings", "/settings", Settings),
      link("audit", "/audit", ScrollText),
    ],
  }];
  const shown = <T extends { action: Action }>(items: T[]) =>
    items.filter((item) => can(user, item.action));
  return groups.map((group) => ({
    ...group,
    items: shown(group.items).map((item) =>
      item.kind === "submenu" ? { ...item, items: shown(item.items) } : item
    ),
  })).filter((group) => group.items.length > 0);
}

/** Is this menu link the current page? ("/" only matches itself; "/tickets" matches /tickets/x.) */
export function isActive(href: string, path: string): boolean {
  if (href === "/") return path === "/";
  return path === href || path.startsWith(`${href}/`);
}

/** Connection states that raise the menu's alert (seeds/000 section 2 'Side menu'). */
export const ALERT_STATES = new Set(["qrcode", "PAIRING", "DISCONNECTED", "TIMEOUT", "OPENING"]);

export function connectionsNeedAttention(list: { status: string }[]): boolean {
  return list.some((c) => ALERT_STATES.has(c.status));
}
