import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { ZodError } from "zod";
import { AppError } from "../errors.ts";
import { log } from "../log.ts";
import { fieldErrors } from "./validate.ts";

/** The one renderer of errors: `{ error, message, fields? }`; anything unknown is a logged, generic 500. */
export function renderError(error: Error, c: Context): Response {
  if (error instanceof AppError) {
    if (error.status >= 500) log.error("request failed", { path: c.req.path, error });
    const body: Record<string, unknown> = { error: error.code, message: error.message };
    if (error.fields) body.fields = error.fields;
    if (error.params) body.params = error.params;
    return c.json(body, error.status as ContentfulStatusCode);
  }
  if (error instanceof ZodError) {
    return c.json({
      error: "ERR_VALIDATION",
      message: "Invalid input",
      fields: fieldErrors(error.issues),
    }, 400);
  }
  if (error instanceof HTTPException) {
    // Hono raises these for a malformed JSON body and similar protocol-level problems.
    const status = error.status;
    if (status === 413) {
      return c.json({ error: "ERR_BODY_TOO_LARGE", message: "Request body too large" }, 413);
    }
    if (status < 500) {
      return c.json({ error: "ERR_VALIDATION", message: error.message || "Bad request" }, status);
    }
  }
  log.error("unhandled error", { method: c.req.method, path: c.req.path, error });
  return c.json({ error: "ERR_INTERNAL", message: "Internal server error" }, 500);
}
