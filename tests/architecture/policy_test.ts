import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";

/**
 * Who may call a route is a line of the policy table (contract/policy.ts), declared with
 * `allow(action)` and asked with `isAllowed` / `assertAllowed` (server/auth/policy.ts). A route
 * that tests a profile or the super flag itself decides a role outside the table: the walk of
 * tests/api/policy_walk_test.ts would not see it, and changing the table would not change it.
 */
const ROOT = fileURLToPath(new URL("../../", import.meta.url));

/** A role tested by hand: the profile compared, or the admin / super flags read. */
const HAND_ROLLED =
  /\bprofile(\.toLowerCase\(\))?\s*[!=]==?\s*["'`](admin|user)|["'`](admin|user)["'`]\s*[!=]==?\s*[\w.]*profile\b|\.isSuper\b|\.isAdmin\b|\.super\s*[!=]==|\brequire(Admin|Super)\b/;

async function* sources(dir: string): AsyncGenerator<string> {
  for await (const entry of Deno.readDir(`${ROOT}${dir}`)) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory) yield* sources(path);
    else if (/\.tsx?$/.test(entry.name)) yield path;
  }
}

Deno.test("architecture - routes decide no role by hand: they name an action of the policy table", async () => {
  const offenders: string[] = [];
  for await (const file of sources("routes")) {
    const lines = (await Deno.readTextFile(`${ROOT}${file}`)).split("\n");
    lines.forEach((line, i) => {
      if (HAND_ROLLED.test(line)) offenders.push(`${file}:${i + 1}: ${line.trim()}`);
    });
  }
  assert.deepEqual(offenders, []);
});

Deno.test("architecture - the hand-rolled role pattern catches what it is meant to", () => {
  for (
    const line of [
      'all: auth.profile === "admin",',
      'if (user.profile.toLowerCase() !== "admin") throw forbidden();',
      "if (!auth.isSuper) throw forbidden();",
      "if (!viewer.isAdmin && note.userId !== viewer.userId) throw forbidden();",
      "if (target.super === 1) return;",
      'app.post("/", requireAdmin, handler);',
    ]
  ) assert.ok(HAND_ROLLED.test(line), line);
  for (
    const line of [
      'all: isAllowed(auth, "schedule:manage-any"),',
      'app.delete("/:id", allow("contact:delete"), handler);',
      "const profile = input.profile;",
    ]
  ) assert.ok(!HAND_ROLLED.test(line), line);
});
