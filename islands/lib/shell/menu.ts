import type { LucideIcon } from "lucide-react";
import Bot from "lucide-react/icons/bot";
import CalendarDays from "lucide-react/icons/calendar-days";
import CircleHelp from "lucide-react/icons/circle-help";
import Code from "lucide-react/icons/code";
import Contact from "lucide-react/icons/contact";
import FileStack from "lucide-react/icons/file-stack";
import Kanban from "lucide-react/icons/kanban";
import LayoutDashboard from "lucide-react/icons/layout-dashboard";
import ListChecks from "lucide-react/icons/list-checks";
import ListTree from "lucide-react/icons/list-tree";
import Megaphone from "lucide-react/icons/megaphone";
import MessageCircle from "lucide-react/icons/message-circle";
import MessagesSquare from "lucide-react/icons/messages-square";
import Network from "lucide-react/icons/network";
import Plug from "lucide-react/icons/plug";
import Send from "lucide-react/icons/send";
import Settings from "lucide-react/icons/settings";
import Smartphone from "lucide-react/icons/smartphone";
import Tag from "lucide-react/icons/tag";
import Users from "lucide-react/icons/users";
import Wallet from "lucide-react/icons/wallet";
import Zap from "lucide-react/icons/zap";
import { hasFeature, type PlanFeature } from "../permissions.ts";
import type { SessionUser } from "../../../contract/types.ts";

/**
 * The side menu (seeds/000 section 2 'Side menu', seeds/002 section 2.1): group 'Atendimento'
 * for everyone, a management group (dashboard) and an administration group for admins. Plan flags
 * switch kanban, schedules, internal chat, integrations, prompts, external API and campaigns;
 * announcements are for super users; campaigns also need the stored flag cshow.
 * Labels are i18n keys under "shell.menu".
 */
export type MenuLink = {
  kind: "link";
  id: string;
  href: string;
  icon: LucideIcon;
  /** A live marker: the connections alert or the internal-chat unread dot. */
  marker?: "connections" | "chat";
};

export type MenuSubmenu = { kind: "submenu"; id: string; icon: LucideIcon; items: MenuLink[] };

export type MenuGroup = {
  id: "service" | "management" | "administration";
  items: (MenuLink | MenuSubmenu)[];
};

const link = (
  id: string,
  href: string,
  icon: LucideIcon,
  marker?: MenuLink["marker"],
): MenuLink => ({
  kind: "link",
  id,
  href,
  icon,
  ...(marker ? { marker } : {}),
});

export type MenuContext = {
  user: SessionUser;
  /** localStorage has cshow (seeds/002 section 2.1). */
  cshow: boolean;
};

export function isAdminProfile(user: SessionUser): boolean {
  return user.profile.toLowerCase() === "admin";
}

export function menuFor({ user, cshow }: MenuContext): MenuGroup[] {
  const on = (flag: PlanFeature) => hasFeature(user, flag);
  const admin = isAdminProfile(user);

  const service: MenuGroup = {
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
  };
  if (!admin) return [service];

  const management: MenuGroup = {
    id: "management",
    items: [link("dashboard", "/", LayoutDashboard)],
  };
  const administration: MenuGroup = {
    id: "administration",
    items: [
      ...(on("useCampaigns") && cshow
        ? [{
          kind: "submenu" as const,
          id: "campaigns",
          icon: Send,
          items: [
            link("campaignsList", "/campaigns", ListChecks),
            link("contactLists", "/contact-lists", Users),
            link("campaignsConfig", "/campaigns-config", Settings),
          ],
        }]
        : []),
      ...(user.super ? [link("announcements", "/announcements", Megaphone)] : []),
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
    ],
  };
  return [service, management, administration];
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
