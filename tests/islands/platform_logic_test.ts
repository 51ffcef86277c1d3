import assert from "node:assert/strict";
import { dueDateTone, youtubeId } from "../../contract/platform_types.ts";
import { hasFeature, planGuard } from "../../islands/lib/permissions.ts";
import { menuFor } from "../../islands/lib/shell/menu.ts";
import type { PlanFlags, SessionUser } from "../../contract/types.ts";

/** Issue 11's browser rules: due-date colours, video ids, plan guards and the menu's flags. */

const plan = (over: Partial<PlanFlags> = {}): PlanFlags => ({
  id: 1,
  name: "P",
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
  ...over,
});

const user = (p: PlanFlags | null): SessionUser => ({
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
  company: { id: 1, name: "Alpha", dueDate: null, settings: [], plan: p },
});

const ids = (u: SessionUser) =>
  menuFor({ user: u, cshow: true }).flatMap((g) => g.items.map((i) => i.id));

Deno.test("plan guard and menu - a flag off hides its entry and its page; no plan means none", () => {
  assert.ok(ids(user(plan())).includes("kanban"));
  assert.ok(!ids(user(plan({ useKanban: false }))).includes("kanban"));
  assert.ok(!ids(user(plan({ useSchedules: false }))).includes("schedules"));
  assert.ok(ids(user(plan())).includes("files"));
  assert.ok(!ids(user(plan({ useCampaigns: false }))).includes("files"));
  assert.ok(!ids(user(null)).includes("kanban"));
  const guard = planGuard("useKanban");
  assert.equal(guard.allow(user(plan())), true);
  assert.equal(guard.allow(user(plan({ useKanban: false }))), false);
  assert.equal(guard.message, "errors.noPermissionPage");
  assert.equal(guard.redirectTo, "/");
  assert.equal(hasFeature(null, "useKanban"), false);
});

Deno.test("due-date colours - exactly as seeds/001 section 9", () => {
  const today = "2026-11-22";
  const tone = (due: string) => dueDateTone(due, today);
  assert.equal(tone("2026-11-27"), "yellow"); // 5 days left
  assert.equal(tone("2026-11-26"), "orange"); // 4 left
  assert.equal(tone("2026-11-22"), "orange"); // today
  assert.equal(tone("2026-11-19"), "orange"); // 3 overdue
  assert.equal(tone("2026-11-18"), "red"); // 4 overdue
  assert.equal(tone("2026-11-28"), null);
  assert.equal(tone("2026-11-17"), null);
  assert.equal(dueDateTone(null, today), null);
  // Across a month end.
  assert.equal(dueDateTone("2026-12-03", "2026-11-28"), "yellow");
});

Deno.test("youtubeId - ids and the usual URL shapes; anything else is null", () => {
  assert.equal(youtubeId("dQw4w9WgXcQ"), "dQw4w9WgXcQ");
  assert.equal(youtubeId("https://youtu.be/dQw4w9WgXcQ?si=x"), "dQw4w9WgXcQ");
  assert.equal(youtubeId("https://www.youtube.com/watch?v=dQw4w9WgXcQ&t=1"), "dQw4w9WgXcQ");
  assert.equal(youtubeId("https://www.youtube.com/embed/dQw4w9WgXcQ"), "dQw4w9WgXcQ");
  assert.equal(youtubeId("https://m.youtube.com/shorts/dQw4w9WgXcQ"), "dQw4w9WgXcQ");
  assert.equal(youtubeId("https://evil.test/watch?v=dQw4w9WgXcQ"), null);
  assert.equal(youtubeId("javascript:alert(1)"), null);
  assert.equal(youtubeId("abc"), null);
});
