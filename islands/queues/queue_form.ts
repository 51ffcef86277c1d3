import { HEX_COLOR_PATTERN } from "../../contract/palette.ts";
import { LIMITS } from "../../contract/validation.ts";

/**
 * The queue form's rules (seeds/001 section 5), checked before sending; the server checks the
 * same. Answers i18n keys by field.
 *   name: required, 2 to 50 characters ('Too Short!' / 'Too Long!')
 *   color: required, 3 to 9 characters, a hex colour
 *   orderQueue: empty or a whole number 0..9999
 */
export function queueProblems(
  form: { name: string; color: string; orderQueue: string },
): Record<string, string> {
  const problems: Record<string, string> = {};
  const name = form.name.trim();
  if (!name) problems.name = "queues.errors.required";
  else if (name.length < LIMITS.name.min) problems.name = "people.validation.tooShort";
  else if (name.length > LIMITS.name.max) problems.name = "people.validation.tooLong";

  const color = form.color.trim();
  if (!color) problems.color = "queues.errors.required";
  else if (color.length < LIMITS.color.min) problems.color = "people.validation.tooShort";
  else if (color.length > LIMITS.color.max) problems.color = "people.validation.tooLong";
  else if (!HEX_COLOR_PATTERN.test(color)) problems.color = "queues.errors.invalidColor";

  const order = form.orderQueue.trim();
  if (order !== "" && !(/^\d{1,4}$/.test(order))) problems.orderQueue = "queues.errors.order";
  return problems;
}
