import { z } from "zod";
import { type Limit, LIMITS, RULE_TEXTS } from "../../contract/validation.ts";

/**
 * Form fields shared by several resources, with the specification's messages
 * (seeds/000 section 5: 'Too Short!', 'Too Long!', 'Required', 'Invalid email').
 */

/**
 * A required text within a LIMITS entry (contract/validation.ts, shared with the forms),
 * trimmed unless `trim` is false, with the specification's texts.
 */
export function limitedText(
  limit: Limit,
  texts: { required: string; tooShort: string; tooLong: string } = RULE_TEXTS,
  trim = true,
) {
  const base = z.string({ error: texts.required });
  return (trim ? base.trim() : base)
    .min(1, { message: texts.required, abort: true })
    .min(limit.min, { message: texts.tooShort, abort: true })
    .max(limit.max, { message: texts.tooLong, abort: true });
}

/** The texts of the admin forms of seeds/001 section 5 (tags, quick messages, schedules). */
export const ADMIN_TEXTS = {
  required: RULE_TEXTS.obrigatorio,
  tooShort: RULE_TEXTS.shortMessage,
  tooLong: RULE_TEXTS.tooLong,
};

/** A required name of 2 to 50 characters (users, contacts, queues, connections). */
export const name2to50 = limitedText(LIMITS.name);

/** A password of 5 to 50 characters (not trimmed: spaces are part of it). */
export const password5to50 = limitedText(LIMITS.password, RULE_TEXTS, false);

/** A required, valid email, stored lower-cased. */
export const requiredEmail = z.string({ error: "Required" }).trim()
  .min(1, { message: "Required", abort: true })
  .max(254, "Too Long!").pipe(z.email("Invalid email")).transform((v) => v.toLowerCase());

/** An email that may be empty; when given it must be valid. Stored lower-cased. */
export const optionalEmail = z.string().trim().max(254, "Too Long!")
  .refine((v) => v === "" || z.email().safeParse(v).success, "Invalid email")
  .transform((v) => v.toLowerCase());

/**
 * An approved template to send (issue 45; Cloud API): its name, language and body parameters in
 * order. Shared by the composer's send, campaigns, schedules and the external API.
 */
export const templateField = z.object({
  name: z.string().trim().min(1).max(512),
  language: z.string().trim().min(2).max(15),
  parameters: z.array(z.string().max(1024)).max(20).default([]),
});
