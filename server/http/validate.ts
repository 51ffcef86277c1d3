import { validator } from "hono-openapi";
import type { ValidationTargets } from "hono";
import type { ZodType } from "zod";
import { AppError, type FieldErrors } from "../errors.ts";

/** Per-field messages from a zod error, keyed by dotted path ("" for the whole body). */
export function fieldErrors(
  issues: readonly {
    path?: readonly (PropertyKey | { key: PropertyKey })[] | undefined;
    message: string;
  }[],
): FieldErrors {
  const fields: FieldErrors = {};
  for (const issue of issues) {
    const key = (issue.path ?? []).map((p) => String(typeof p === "object" ? p.key : p))
      .join(".");
    (fields[key] ??= []).push(issue.message);
  }
  return fields;
}

/**
 * The routes' validator: answers 400 ERR_VALIDATION with per-field messages. It is hono-openapi's
 * validator (zod through Standard Schema), which also records the schema on the route, so the
 * OpenAPI document (/api/openapi.json, routes/api/openapi.ts) is generated from the very schemas
 * the routes validate with.
 */
export function validate<T extends ZodType, Target extends keyof ValidationTargets>(
  target: Target,
  schema: T,
) {
  return validator(target, schema, (result) => {
    if (!result.success) {
      const fields = fieldErrors(result.error);
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
