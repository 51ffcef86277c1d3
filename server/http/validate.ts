import { zValidator } from "@hono/zod-validator";
import type { ValidationTargets } from "hono";
import type { ZodType } from "zod";
import { AppError, type FieldErrors } from "../errors.ts";

/** Per-field messages from a zod error, keyed by dotted path ("" for the whole body). */
export function fieldErrors(
  issues: readonly { path: readonly PropertyKey[]; message: string }[],
): FieldErrors {
  const fields: FieldErrors = {};
  for (const issue of issues) {
    const key = issue.path.map(String).join(".");
    (fields[key] ??= []).push(issue.message);
  }
  return fields;
}

/** zValidator that answers 400 ERR_VALIDATION with per-field messages. */
export function validate<T extends ZodType, Target extends keyof ValidationTargets>(
  target: Target,
  schema: T,
) {
  return zValidator(target, schema, (result) => {
    if (!result.success) {
      const fields = fieldErrors(result.error.issues);
      const first = Object.entries(fields)[0];
      throw new AppError(
        400,
        "ERR_VALIDATION",
        first ? `${first[0] || target}: ${first[1][0]}` : "Invalid input",
        {
          fields,
        },
      );
    }
  });
}
