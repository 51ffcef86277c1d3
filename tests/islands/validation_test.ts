import assert from "node:assert/strict";
import { length, LIMITS } from "../../contract/validation.ts";
import { limitedText } from "../../server/http/fields.ts";

/**
 * The forms and the routes read the same LIMITS (contract/validation.ts): for every rule and
 * every length from empty to one past the maximum, the form's check and the route's zod schema
 * accept and refuse the same texts.
 */
Deno.test("validation - the form rule and the route schema agree on every length", () => {
  for (const [rule, limit] of Object.entries(LIMITS)) {
    const form = length(limit);
    const route = limitedText(limit);
    const lengths = [0, limit.min - 1, limit.min, limit.max, limit.max + 1].filter((n) => n >= 0);
    for (const n of lengths) {
      const text = "a".repeat(n);
      const formOk = form(text) === null;
      const routeOk = route.safeParse(text).success;
      assert.equal(routeOk, formOk, `${rule} at length ${n}`);
      assert.equal(formOk, n >= Math.max(1, limit.min) && n <= limit.max, `${rule} at ${n}`);
    }
  }
});
