import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { ZodError } from "zod";
import { AppError } from "../errors.ts";
import { log } from "../log.ts";
import { fieldErrors } from "./validate.ts";
import { type AnswerLanguage, answerLanguage } from "./language.ts";
import { translatedValidation } from "./validation_texts.ts";
import type { StorageHealth } from "../storage/health.ts";
import { storageProblem } from "../storage/problem.ts";
import pt from "../../locales/pt.json" with { type: "json" };
import en from "../../locales/en.json" with { type: "json" };
import es from "../../locales/es.json" with { type: "json" };

/** The storage answers' texts, in the caller's language (Accept-Language; Portuguese first). */
const STORAGE_TEXTS: Record<
  AnswerLanguage,
  Record<"ERR_STORAGE_FULL" | "ERR_STORAGE_UNAVAILABLE", string>
> = { pt: pt.errors, en: en.errors, es: es.errors };

function storageAnswer(c: Context, problem: "full" | "unavailable"): Response {
  const code = problem === "full" ? "ERR_STORAGE_FULL" : "ERR_STORAGE_UNAVAILABLE";
  return c.json(
    { error: code, message: STORAGE_TEXTS[answerLanguage(c)][code] },
    problem === "full" ? 507 : 503,
  );
}

/**
 * The one renderer of errors: `{ error, message, fields? }`; anything unknown is a logged, generic
 * 500. A write refused by the storage (issue 34) is 507 ERR_STORAGE_FULL or 503
 * ERR_STORAGE_UNAVAILABLE, logged once when the state begins (StorageHealth), not per request.
 */
export function renderError(error: Error, c: Context, storage?: StorageHealth): Response {
  // A refusal of ours (4xx) stays what it says, whatever its cause.
  const problem = error instanceof AppError && error.status < 500
    ? undefined
    : storage
    ? storage.report(error, c.req.path)
    : storageProblem(error);
  if (problem) return storageAnswer(c, problem);
  if (error instanceof AppError) {
    // 507 is a refusal for lack of room, logged where it was decided (no stack per request).
    if (error.status >= 500 && error.status !== 507) {
      log.error("request failed", { path: c.req.path, error });
    }
    const body: Record<string, unknown> = { error: error.code, message: error.message };
    if (error.fields) body.fields = error.fields;
    // Field messages in the request's language, with each field's rule (issue 44).
    if (error.code === "ERR_VALIDATION" && error.fields) {
      Object.assign(body, translatedValidation(error.message, error.fields, answerLanguage(c)));
    }
    if (error.params) body.params = error.params;
    return c.json(body, error.status as ContentfulStatusCode);
  }
  if (error instanceof ZodError) {
    const fields = fieldErrors(error.issues);
    const first = Object.entries(fields)[0];
    const message = first ? `${first[0] || "body"}: ${first[1][0]}` : "Invalid input";
    return c.json({
      error: "ERR_VALIDATION",
      ...translatedValidation(message, fields, answerLanguage(c)),
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
