import assert from "node:assert/strict";
import { createI18n } from "../../islands/lib/i18n.ts";
import { ApiError, errorText } from "../../islands/lib/errors.ts";
import { daysUntil } from "../../islands/lib/session.ts";
import { apiUrl } from "../../islands/lib/api.ts";
import { LatestWrite } from "../../islands/lib/use_record.ts";
import { connectionsNeedAttention, isActive, menuFor } from "../../islands/lib/shell/menu.ts";
import type { PlanFlags, SessionUser } from "../../contract/types.ts";
import type { SessionUser as ServerSessionUser } from "../../server/auth/service.ts";
import pt from "../../locales/pt.json" with { type: "json" };
import en from "../../locales/en.json" with { type: "json" };

// The client's view of the session answer must accept what the server sends (compile-time).
const _contract: (u: ServerSessionUser) => SessionUser = (u) => u;

const FULL_PLAN: PlanFlags = {
  id: 1,
  name: "Full",
  users: 10,
  connections: 10,
  queues: 10,
  useCampaigns: true,
  useKanban: true,
  useOpenAi: true,
  useIntegrations: true,
  useAssist: true,
  useSchedules: true,
  useInternalChat: true,
  useExternalApi: true,
};

function user(overrides: Partial<SessionUser> = {}, plan: Partial<PlanFlags> = {}): SessionUser {
  return {
    id: 1,
    name: "Ana",
    email: "ana@x.test",
    profile: "admin",
    super: false,
    companyId: 1,
    whatsappId: null,
    allTicket: "disable",
    online: true,
    queues: [],
    company: {
      id: 1,
      name: "Acme",
      dueDate: "2030-01-01",
      settings: [],
      plan: { ...FULL_PLAN, ...plan },
    },
    ...overrides,
  };
}

const ids = (u: SessionUser, cshow = true) =>
  menuFor({ user: u, cshow }).map((g) => ({
    group: g.id,
    items: g.items.map((i) => i.kind === "link" ? i.id : `${i.id}[${i.items.map((s) => s.id)}]`),
  }));

Deno.test("menu - a user gets only the service group", () => {
  assert.deepEqual(ids(user({ profile: "user" })), [{
    group: "service",
    items: [
      "tickets",
      "quickMessages",
      "kanban",
      "contacts",
      "schedules",
      "todolist",
      "tags",
      "chats",
      "helps",
      "simulator",
    ],
  }]);
});

Deno.test("menu - an admin gets management and administration; profile compares case-insensitively", () => {
  const groups = ids(user({ profile: "ADMIN" }));
  assert.deepEqual(groups.map((g) => g.group), ["service", "management", "administration"]);
  assert.deepEqual(groups[1].items, ["dashboard", "reports"]);
  assert.deepEqual(groups[2].items, [
    "campaigns[campaignsList,contactLists,campaignsConfig]",
    "prompts",
    "queueIntegration",
    "connections",
    "files",
    "queues",
    "users",
    "messagesApi",
    "financeiro",
    "settings",
    "audit",
  ]);
});

Deno.test("menu - plan flags, the super flag and cshow switch entries", () => {
  const off = ids(user({}, {
    useKanban: false,
    useSchedules: false,
    useInternalChat: false,
    useOpenAi: false,
    useIntegrations: false,
    useAssist: false,
    useExternalApi: false,
    useCampaigns: false,
  }));
  const all = off.flatMap((g) => g.items);
  for (
    const gone of ["kanban", "schedules", "chats", "prompts", "queueIntegration", "messagesApi"]
  ) {
    assert.ok(!all.includes(gone), gone);
  }
  assert.ok(!all.some((i) => i.startsWith("campaigns")));
  // Campaigns need the plan AND the stored cshow flag.
  assert.ok(!ids(user(), false).flatMap((g) => g.items).some((i) => i.startsWith("campaigns")));
  // Announcements: super users only.
  assert.ok(!ids(user()).flatMap((g) => g.items).includes("announcements"));
  assert.ok(ids(user({ super: true })).flatMap((g) => g.items).includes("announcements"));
  // No plan at all: no optional entry.
  const none = user();
  none.company.plan = null;
  assert.ok(!ids(none).flatMap((g) => g.items).includes("kanban"));
});

Deno.test("menu - active link and connection alert states", () => {
  assert.equal(isActive("/", "/"), true);
  assert.equal(isActive("/", "/tickets"), false);
  assert.equal(isActive("/tickets", "/tickets/abc"), true);
  assert.equal(isActive("/tickets", "/ticketsx"), false);
  for (const status of ["qrcode", "PAIRING", "DISCONNECTED", "TIMEOUT", "OPENING"]) {
    assert.equal(connectionsNeedAttention([{ status: "CONNECTED" }, { status }]), true, status);
  }
  assert.equal(connectionsNeedAttention([{ status: "CONNECTED" }, { status: "connected" }]), false);
  assert.equal(connectionsNeedAttention([]), false);
});

Deno.test("errors - translated code, else the message, a string as is, else the generic text", () => {
  const t = createI18n({ lng: "en", resources: { en, pt } }).t;
  assert.equal(
    errorText(new ApiError(404, "ERR_NO_TICKET_FOUND", "Not found"), t),
    "Ticket not found.",
  );
  assert.equal(
    errorText(
      new ApiError(401, "ERR_SUBSCRIPTION_EXPIRED", "Sua assinatura expirou em 01/11/2026."),
      t,
    ),
    "Sua assinatura expirou em 01/11/2026.",
  );
  assert.equal(errorText(new ApiError(400, "ERR_SOMETHING_NEW", "Raw text"), t), "Raw text");
  assert.equal(errorText("plain string", t), "plain string");
  assert.equal(errorText(new ApiError(502, null, ""), t), "An error occurred!");
  assert.equal(errorText({ weird: true }, t), "An error occurred!");
  assert.equal(errorText(new TypeError("Failed to fetch"), t), en.errors.network);
  // Portuguese falls back to itself; a key missing in a language falls back to pt.
  const tPt = createI18n({ lng: "pt", resources: { pt } }).t;
  assert.equal(errorText(new ApiError(500, "ERR_INTERNAL", "x"), tPt), pt.errors.ERR_INTERNAL);
  const tEs = createI18n({ lng: "es", resources: { es: {}, pt } }).t;
  assert.equal(tEs("shell.menu.tickets"), "Atendimentos");
});

Deno.test("i18n - plural forms of the subscription warning", () => {
  const t = createI18n({ lng: "pt", resources: { pt } }).t;
  assert.equal(t("shell.subscriptionExpiresIn", { count: 1 }), "Sua assinatura vence em 1 dia.");
  assert.equal(t("shell.subscriptionExpiresIn", { count: 4 }), "Sua assinatura vence em 4 dias.");
  assert.equal(t("shell.subscriptionExpiresIn", { count: 0 }), "Sua assinatura vence hoje.");
  const tEn = createI18n({ lng: "en", resources: { en, pt } }).t;
  assert.equal(
    tEn("shell.subscriptionExpiresIn", { count: 2 }),
    "Your subscription expires in 2 days.",
  );
});

Deno.test("session - days until the due date, by calendar day", () => {
  const now = new Date(2026, 10, 22, 23, 30);
  assert.equal(daysUntil("2026-11-22", now), 0);
  assert.equal(daysUntil("2026-11-25", now), 3);
  assert.equal(daysUntil("2026-11-25T00:00:00.000Z", now), 3);
  assert.equal(daysUntil("2026-11-20", now), -2);
  assert.equal(daysUntil(null, now), null);
});

Deno.test("api - urls with query strings; arrays as JSON as the specification sends them", () => {
  assert.equal(apiUrl("/tickets"), "/api/tickets");
  assert.equal(
    apiUrl("/tickets", { pageNumber: 2, status: "open", tags: [1, 2], skip: undefined, no: null }),
    "/api/tickets?pageNumber=2&status=open&tags=%5B1%2C2%5D",
  );
});

// A page's record (lib/use_record.ts): a read begun before a live change must not overwrite it
// when it answers after it (the campaign report stayed 'Em andamento' after 'Finalizada').
Deno.test("page record - a read begun before a live change is dropped; a read after it counts", () => {
  const latest = new LatestWrite();
  const early = latest.begin();
  latest.touch(); // the socket's 'Finalizada'
  assert.equal(latest.current(early), false, "the older read's answer is dropped");
  const later = latest.begin();
  assert.equal(latest.current(later), true, "a read begun after the change counts");
  const overtaken = latest.begin();
  const newest = latest.begin();
  assert.equal(latest.current(overtaken), false, "of two reads, only the last one's answer counts");
  assert.equal(latest.current(newest), true);
});
