/**
 * Who may do what: ONE table, action -> roles. The server reads it in route middleware
 * (`allow(action)`, server/auth/middleware.ts) and in services (`assertAllowed`,
 * server/auth/policy.ts); the browser reads it in `can()` (islands/lib/permissions.ts) and in
 * the menu (islands/lib/shell/menu.ts). Change a line here and the routes, the services, the
 * buttons and the menu follow; tests/api/policy_walk_test.ts walks every /api route against it.
 *
 * Roles: a caller holds its profile ("user" or "admin", compared case-insensitively, seeds/000
 * section 6) and, with the super flag, "super" too (a platform user; seeds/001 section 1).
 * What only company admins did before (the old requireAdmin) lets super users through: ADMINS.
 * A few decisions inside a company's daily work were always the admin profile's alone
 * (ADMIN_PROFILE): the super flag by itself does not grant them.
 *
 * Who sees which ticket (and so whose socket hears it) is the audience rule beside this table,
 * contract/ticket_audience.ts; admins there are this table's "ticket:see-all". Who may act on a
 * given record (their own note, another attendant's ticket) is a record rule,
 * contract/record_policy.ts: it answers which of this table's lines the record still asks for.
 */
import type { Role } from "./roles.ts";

// The roles and the page a refused page sends to live in roles.ts (the pages without the shell
// need only them, not the table: issue 33); they are re-exported here for every other caller.
export { type Caller, PAGE_DENIED_REDIRECT, type Role, rolesOf } from "./roles.ts";

/** Every signed-in user (seeds/000 section 6: "User: no static permissions" beyond daily work). */
const EVERYONE = ["user", "admin", "super"] as const;
/** Company admins, and super users (who administer the platform). */
const ADMINS = ["admin", "super"] as const;
/** The admin profile itself. */
const ADMIN_PROFILE = ["admin"] as const;
/** Platform users only (companies, plans, helps, announcements, backups). */
const SUPER = ["super"] as const;
/** No role: what only the record itself lets one do (record rules, contract/record_policy.ts). */
const NOBODY = [] as const;

export const POLICY = {
  // Daily work: every signed-in user, in their own company.
  "app:use": EVERYONE, // one's own session (me, logout) and to-do list
  "ticket:work": EVERYONE, // tickets, their messages, notes, tags and the kanban board
  "contact:work": EVERYONE, // list, read, create and edit contacts
  "tag:work": EVERYONE,
  "quick-message:work": EVERYONE, // one's own and the general quick answers
  "schedule:work": EVERYONE, // one's own scheduled messages
  "chat:work": EVERYONE, // internal chat
  "chat:manage-any": NOBODY, // change or delete another's internal chat: only its owner does
  "user:read": EVERYONE, // the team list (transfers, filters); editing oneself
  "queue:read": EVERYONE,
  "prompt:read": EVERYONE,
  "connection:read": EVERYONE,
  "setting:read": EVERYONE, // secrets left out unless setting:manage
  "company:read": EVERYONE, // one's own company and plan (super users: any)
  "help:read": EVERYONE,
  "announcement:read": EVERYONE,
  "simulator:use": EVERYONE, // the built-in phone of the company's simulator connections
  // /reports, their exports and transcripts (issue 27): the gate lets everyone through to the
  // record rule reportScopeNeeds (contract/record_policy.ts, SERVICE_DECIDES below):
  // "report:read-all" for every queue, a supervisor of queues for theirs, anyone else 403.
  "report:read": EVERYONE,

  // Inside daily work, the admin profile's (seeds/000 section 6 'Admin').
  "ticket:delete": ADMIN_PROFILE,
  "ticket:see-all": ADMIN_PROFILE, // the show-all switch
  "ticket:skip-queue": ADMIN_PROFILE, // a new ticket without a queue
  "ticket:any-queue": ADMIN_PROFILE, // a new ticket in a queue not one's own
  "ticket:act-any": ADMIN_PROFILE, // act on another attendant's ticket (contract/record_policy.ts)
  "ticket:assign-any": ADMIN_PROFILE, // a new ticket for another attendant
  // A ticket the audience rule (contract/ticket_audience.ts) keeps from the caller: no role
  // opens it, the rule itself has read the roles ("ticket:see-all") already.
  "ticket:outside-audience": NOBODY,
  "ticket-note:delete-any": ADMIN_PROFILE, // others' notes (one's own: everyone)
  "tag:kanban": ADMIN_PROFILE, // the kanban switch of a tag (seeds/001 section 2)
  "quick-message:manage-any": ADMIN_PROFILE, // see and change others' quick answers
  "schedule:manage-any": ADMIN_PROFILE, // see and change others' schedules

  // Company administration.
  "dashboard:read": ADMINS,
  "report:read-all": ADMINS, // every queue's reports (issue 27); others: see "report:read"
  "storage:read": ADMINS, // the server's free space and storage state (the banner, issue 34)
  "contact:delete": ADMINS,
  "contact:export": ADMINS,
  "contact:import": ADMINS,
  "user:create": ADMINS,
  "user:delete": ADMINS,
  "user:manage": ADMINS, // edit other users
  "user:set-profile": ADMINS,
  "user:set-queues": ADMINS, // queues, default connection, allTicket, capacity, work hours
  "user:set-supervisor": ADMINS, // mark a user supervisor of their queues (issue 26)
  "queue:manage": ADMINS, // queues and their chatbot options
  "integration:manage": ADMINS,
  "prompt:manage": ADMINS,
  "setting:manage": ADMINS, // and read integration secrets
  "working-hours:manage": ADMINS,
  "connection:create": ADMINS,
  "connection:manage": ADMINS, // edit, delete, API token; read their secrets
  "connection:connect": ADMINS, // start, QR code, pairing code, disconnect
  "invoice:pay": ADMINS, // the company's invoices, checkout, subscription
  "plan:change": ADMINS, // choose the company's plan on /financeiro (PLAN_CHANGE_ENABLED)
  "campaign:manage": ADMINS, // campaigns and their settings
  "contact-list:manage": ADMINS,
  "file-list:manage": ADMINS,
  "webhook:manage": ADMINS,
  "audit:read": ADMINS, // the company's audit log (super users: the platform's)
  "session:manage-any": ADMINS, // see and end the sessions of the company's users
  "two-factor:reset": ADMINS, // turn off a user's second factor (lost device)

  // The platform.
  "company:manage": SUPER,
  "plan:manage": SUPER,
  "help:manage": SUPER,
  "announcement:manage": SUPER, // write, and list the inactive ones too
  "invoice:mark-paid": SUPER, // confirm a payment by hand
  "invoice:manage": SUPER, // create, change and delete any company's invoices
  "setting:manage-platform": SUPER, // settings marked superOnly
  "user:create-when-disabled": SUPER, // create users with the userCreation setting off
  "user:manage-super": SUPER, // edit or delete a super user; grant or take the flag
  "user:own-access": NOBODY, // one's own profile, super flag or account: only someone else's hand
  "user:set-password": SUPER, // set any user's password without mail
  "backup:manage": SUPER,
  "audit:read-platform": SUPER, // every company's audit log
} as const satisfies Record<string, readonly Role[]>;

export type Action = keyof typeof POLICY;

/**
 * Lines whose gate lets every role through because a record, not a role, completes the decision:
 * the service refuses (403 ERR_NO_PERMISSION) a caller holding none of the named line's roles
 * unless the record says otherwise. "report:read": a user who supervises no queue (user_queues.
 * supervisor, issue 26) is refused by the record rule reportScopeNeeds
 * (contract/record_policy.ts), asserted by server/reports/scope.ts. tests/api/policy_walk_test.ts
 * expects those refusals of its callers (who supervise nothing); the menu and the page ask
 * `canReadReports` (islands/lib/permissions.ts).
 */
export const SERVICE_DECIDES = {
  "report:read": "report:read-all",
} as const satisfies Partial<Record<Action, Action>>;

/**
 * Issue 29: a late company's admin signs in to a restricted session (`restricted: "billing"`):
 * only these actions (their own session, the company's due date, /financeiro and /subscription).
 * Everything else is 403 ERR_SUBSCRIPTION_OVERDUE, with a text that says to pay.
 */
export const BILLING_SESSION_ACTIONS: readonly Action[] = [
  "app:use",
  "company:read",
  "invoice:pay",
  // Issue 50: a late company may pay for another plan than the one that lapsed.
  "plan:change",
];

/** The session kinds: a full session, or a late company's admin's billing-only session. */
export type Restriction = "billing";

/**
 * The named actions of seeds/000 section 6, as the islands call them, and the action each one
 * is: `can(user, "ticket-options:deleteTicket")` asks the "ticket:delete" line.
 */
export const SEED_ACTIONS = {
  "tickets-manager:showall": "ticket:see-all",
  "ticket-options:deleteTicket": "ticket:delete",
  "connections-page:addConnection": "connection:create",
  "connections-page:actionButtons": "connection:connect",
  "connections-page:editOrDeleteConnection": "connection:manage",
  "user-modal:editProfile": "user:set-profile",
  "user-modal:editQueues": "user:set-queues",
  "contacts-page:deleteContact": "contact:delete",
} as const satisfies Record<string, Action>;

export type SeedAction = keyof typeof SEED_ACTIONS;

/** The table's line for an action (a seeds' name reads the action it stands for). */
export function rolesFor(action: Action | SeedAction): readonly Role[] {
  const name = Object.hasOwn(SEED_ACTIONS, action)
    ? SEED_ACTIONS[action as SeedAction]
    : action as Action;
  return POLICY[name];
}

/** May a caller holding these roles do this action? Any action not in the table: no. */
export function allows(roles: readonly Role[], action: Action | SeedAction): boolean {
  if (!Object.hasOwn(POLICY, action) && !Object.hasOwn(SEED_ACTIONS, action)) return false;
  const allowed: readonly Role[] = rolesFor(action);
  return roles.some((role) => allowed.includes(role));
}

/**
 * Which pages a role may open (issue 24 item 9): each page is for one action of the table, the
 * same the side menu shows its entry for (islands/lib/shell/menu.ts reads its actions here). Keyed
 * by the path's first segment ("/campaign/7/report" is "/campaign"); a page not listed is for
 * every signed-in user. The head script leaves a page before its first paint when the stored
 * roles hold none of the page's (routes/pages/render.ts), the shell when the session says so.
 */
export const PAGE_ACTIONS = {
  "/": "dashboard:read",
  "/reports": "report:read",
  "/tickets": "ticket:work",
  "/quick-messages": "quick-message:work",
  "/kanban": "ticket:work",
  "/contacts": "contact:work",
  "/schedules": "schedule:work",
  "/todolist": "app:use",
  "/tags": "tag:work",
  "/chats": "chat:work",
  "/helps": "help:read",
  "/simulator": "simulator:use",
  "/campaigns": "campaign:manage",
  "/campaign": "campaign:manage",
  "/campaigns-config": "campaign:manage",
  "/contact-lists": "contact-list:manage",
  "/files": "file-list:manage",
  "/announcements": "announcement:manage",
  "/prompts": "prompt:manage",
  "/queue-integration": "integration:manage",
  "/connections": "connection:manage",
  "/queues": "queue:manage",
  "/users": "user:manage",
  "/messages-api": "webhook:manage",
  "/financeiro": "invoice:pay",
  "/subscription": "invoice:pay",
  "/settings": "setting:manage",
  "/audit": "audit:read",
} as const satisfies Record<string, Action>;

export type PagePath = keyof typeof PAGE_ACTIONS;

/**
 * Pages whose refusal the specification words itself: seeds/002 section 6 sends a non-super user
 * on /announcements away with its message, to / after 1 second (the page's own guard does it).
 */
const OWN_REFUSAL: readonly string[] = ["/announcements"];

/**
 * The action that decides who may open a page path, for the head script and the shell: "app:use"
 * for a page the table does not list; null where the page refuses in its own words.
 */
export function pageAction(path: string): Action | null {
  const first = `/${path.split("/")[1] ?? ""}`;
  if (OWN_REFUSAL.includes(first)) return null;
  return Object.hasOwn(PAGE_ACTIONS, first) ? PAGE_ACTIONS[first as PagePath] : "app:use";
}
