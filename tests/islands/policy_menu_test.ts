import assert from "node:assert/strict";
import { can, canReadReports } from "../../islands/lib/permissions.ts";
import { menuFor, type MenuLink, type MenuSubmenu } from "../../islands/lib/shell/menu.ts";
import { type Action, POLICY, rolesOf, SERVICE_DECIDES } from "../../contract/policy.ts";
import type { PlanFlags, SessionUser } from "../../contract/types.ts";

/**
 * The browser reads the server's table (contract/policy.ts): the menu shows an entry to exactly
 * the roles of its action's line, and can() answers what the table says, seeds' names included.
 */
const PLAN: PlanFlags = {
  id: 1,
  name: "Full",
  users: 0,
  connections: 0,
  queues: 0,
  useCampaigns: true,
  useKanban: true,
  useOpenAi: true,
  useIntegrations: true,
  useAssist: true,
  useSchedules: true,
  useInternalChat: true,
  useExternalApi: true,
};

function session(profile: string, isSuper: boolean): SessionUser {
  return {
    id: 1,
    name: "Ana",
    email: "ana@x.test",
    profile,
    super: isSuper,
    companyId: 1,
    whatsappId: null,
    allTicket: "disable",
    online: true,
    queues: [],
    company: { id: 1, name: "Acme", dueDate: null, settings: [], plan: PLAN },
  };
}

const CALLERS = [
  session("user", false),
  session("admin", false),
  session("user", true),
  session("admin", true),
];

const entries = (user: SessionUser) =>
  menuFor({ user, cshow: true }).flatMap((g) => g.items).flatMap((
    item,
  ): (MenuLink | MenuSubmenu)[] => item.kind === "submenu" ? [item, ...item.items] : [item]);

Deno.test("menu - every entry shows to exactly the roles of its action's line", () => {
  // Everything the menu can hold: what the platform's root user (admin and super) sees.
  const every = entries(session("admin", true));
  assert.ok(every.some((e) => e.id === "announcements"));
  for (const user of CALLERS) {
    const roles = rolesOf(user);
    const shown = new Set(entries(user).map((e) => e.id));
    for (const entry of every) {
      // A line the service decides (SERVICE_DECIDES): without the record (a supervised queue,
      // none here), the roles of the line it names.
      const line: Action = Object.hasOwn(SERVICE_DECIDES, entry.action)
        ? SERVICE_DECIDES[entry.action as keyof typeof SERVICE_DECIDES]
        : entry.action;
      const allowed = POLICY[line].some((role) => roles.includes(role));
      assert.equal(shown.has(entry.id), allowed, `${entry.id} (${entry.action}) for ${roles}`);
    }
  }
  // A plain user gets the service group only; a company admin everything but announcements.
  assert.deepEqual(menuFor({ user: CALLERS[0], cshow: true }).map((g) => g.id), ["service"]);
  const admin = new Set(entries(CALLERS[1]).map((e) => e.id));
  assert.deepEqual(every.filter((e) => !admin.has(e.id)).map((e) => e.id), ["announcements"]);
});

Deno.test("menu - reports show to admins and to supervisors of some queue (issue 27)", () => {
  const [user, admin] = CALLERS;
  const supervisor = { ...user, supervisedQueueIds: [7] };
  const ids = (u: SessionUser) => new Set(entries(u).map((e) => e.id));
  assert.equal(ids(user).has("reports"), false);
  assert.equal(ids({ ...user, supervisedQueueIds: [] }).has("reports"), false);
  assert.equal(ids(supervisor).has("reports"), true);
  assert.equal(ids(supervisor).has("dashboard"), false);
  assert.equal(ids(admin).has("reports"), true);
  assert.equal(canReadReports(supervisor), true);
  assert.equal(canReadReports(user), false);
  // A late company's billing-only session reads no reports, supervised queues or not.
  assert.equal(canReadReports({ ...supervisor, restricted: "billing" }), false);
  assert.equal(canReadReports({ ...admin, restricted: "billing" }), false);
});

Deno.test("can - the table's actions and the seeds' names, for each role", () => {
  const [user, admin, superUser, root] = CALLERS;
  assert.equal(can(user, "ticket:work"), true);
  assert.equal(can(user, "ticket-options:deleteTicket"), false);
  assert.equal(can(admin, "ticket-options:deleteTicket"), true);
  assert.equal(can(admin, "ticket:delete"), true);
  // Deleting a ticket is the admin profile's; deleting a contact lets super users through too.
  assert.equal(can(superUser, "ticket-options:deleteTicket"), false);
  assert.equal(can(superUser, "contacts-page:deleteContact"), true);
  assert.equal(can(admin, "company:manage"), false);
  assert.equal(can(superUser, "company:manage"), true);
  assert.equal(can(root, "company:manage"), true);
  assert.equal(can(null, "ticket:work"), false);
});
