import { z } from "zod";

/**
 * Query-string shapes shared by list routes. Whaticket's client sends id lists as JSON text
 * (`tags=[1,2]`), booleans as "true"/"false" and pages as numbers.
 */
export const idParam = z.object({ id: z.coerce.number().int().positive() });

export const pageNumber = z.coerce.number().int().min(1).max(100_000).default(1);

export const flag = z.enum(["true", "false"]).optional().transform((v) => v === "true");

const ids = z.array(z.coerce.number().int().positive()).max(500);

export const idList = z.string().optional().transform((text, ctx) => {
  if (text === undefined || text.trim() === "") return undefined;
  try {
    const value = JSON.parse(text);
    const parsed = ids.safeParse(value);
    if (parsed.success) return parsed.data;
  } catch {
    // reported below
  }
  ctx.addIssue({ code: "custom", message: "Expected a JSON array of ids" });
  return z.NEVER;
});

export const day = z.string().regex(/^\d{4}-\d{2}-\d{2}/, "Expected a date YYYY-MM-DD").optional();
