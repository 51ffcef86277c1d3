import { z } from "zod";

/**
 * Form fields shared by several resources, with the specification's messages
 * (seeds/000 section 5: 'Too Short!', 'Too Long!', 'Required', 'Invalid email').
 */

/** A required name of 2 to 50 characters (users, contacts, queues, connections). */
export const name2to50 = z.string({ error: "Required" }).trim()
  .min(1, { message: "Required", abort: true })
  .min(2, "Too Short!").max(50, "Too Long!");

/** A password of 5 to 50 characters. */
export const password5to50 = z.string({ error: "Required" })
  .min(1, { message: "Required", abort: true })
  .min(5, "Too Short!").max(50, "Too Long!");

/** A required, valid email, stored lower-cased. */
export const requiredEmail = z.string({ error: "Required" }).trim()
  .min(1, { message: "Required", abort: true })
  .max(254, "Too Long!").pipe(z.email("Invalid email")).transform((v) => v.toLowerCase());

/** An email that may be empty; when given it must be valid. Stored lower-cased. */
export const optionalEmail = z.string().trim().max(254, "Too Long!")
  .refine((v) => v === "" || z.email().safeParse(v).success, "Invalid email")
  .transform((v) => v.toLowerCase());

/** A positive integer id from a path parameter. */
export const idParam = z.object({ id: z.coerce.number().int().positive() });

/** pageNumber of list queries: 1-based, defaults to 1. */
export const pageNumber = z.coerce.number().int().min(1).max(100_000).default(1);
