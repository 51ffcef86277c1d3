import { Hono } from "hono";
import { z } from "zod";
import { allow, requireAuth } from "../../server/auth/middleware.ts";
import { type AppDeps, type AppEnv, authOf } from "../../server/context.ts";
import { flag, idParam, pageNumber } from "../../server/http/params.ts";
import { validate } from "../../server/http/validate.ts";
import { listMessages, searchConversation } from "../../server/messages/service.ts";
import { deleteMessage, editMessage, sendMessages } from "../../server/messages/send.ts";
import { forwardMessages } from "../../server/messages/forward.ts";
import { limitedText, templateField } from "../../server/http/fields.ts";
import { LIMITS } from "../../contract/validation.ts";
import { idempotencyKey } from "./external_messages.ts";
import { badRequest } from "../../server/errors.ts";
import { viewerOf } from "../../server/tickets/access.ts";
import { ticketWindow } from "../../server/messages/window.ts";
import { reactToMessage } from "../../server/messages/reactions.ts";

const around = z.coerce.number().int().positive();
const searchText = z.string().trim().min(LIMITS.conversationSearch.min)
  .max(LIMITS.conversationSearch.max);
const ticketParam = z.object({ ticketId: z.coerce.number().int().positive() });

/**
 * JSON send (seeds/000 section 7): {body, quotedMsg?, read?, fromMe?}. quotedMsg is the quoted
 * message (Whaticket's client sends the whole object; only its id counts) or its id. read and
 * fromMe are accepted and ignored: an attendant's message is always fromMe and read.
 */
const sendJson = z.object({
  body: z.string().max(65_536).default(""),
  quotedMsg: z.union([
    z.object({ id: z.number().int().positive() }).loose(),
    z.number().int().positive(),
  ]).nullable().optional(),
  read: z.union([z.boolean(), z.number()]).optional(),
  fromMe: z.union([z.boolean(), z.number()]).optional(),
  /** Issue 45: a pre-approved template (Cloud API), body parameters in order. */
  template: templateField.optional(),
});

const ids = (limit: { min: number; max: number }) =>
  z.array(z.number().int().positive()).min(limit.min).max(limit.max);

/** Issue 28: the messages to forward and to whom (LIMITS of contract/validation.ts). */
const forwardJson = z.object({
  messageIds: ids(LIMITS.forwardMessages),
  contactIds: ids(LIMITS.forwardContacts),
});

/** An optional Idempotency-Key (as the send API's): a retry gets the first answer. */
const forwardHeaders = z.object({ "idempotency-key": idempotencyKey.optional() });

const editJson = z.object({ body: limitedText(LIMITS.editedText) });

const MAX_FILES = 10;

export function filesOf(value: unknown): File[] {
  const list = Array.isArray(value) ? value : value === undefined ? [] : [value];
  if (list.some((v) => !(v instanceof File))) {
    throw badRequest("ERR_VALIDATION", "medias: expected files", { medias: ["Expected files"] });
  }
  if (list.length > MAX_FILES) {
    throw badRequest("ERR_VALIDATION", `medias: at most ${MAX_FILES} files`, {
      medias: [`At most ${MAX_FILES} files`],
    });
  }
  return list as File[];
}

/** /api/messages (seeds/000 section 7). */
export function messageRoutes(deps: AppDeps) {
  const app = new Hono<AppEnv>();
  // Per route, not app.use("*"): routes/api/media.ts shares the /api/messages prefix.
  const signedIn = requireAuth(deps);
  const work = allow("ticket:work");

  app.get(
    "/:ticketId{[0-9]+}",
    signedIn,
    work,
    validate("param", ticketParam),
    // Issue 28: `around=<messageId>` answers the page that holds that message (its pageNumber).
    validate("query", z.object({ pageNumber, peek: flag, around: around.optional() })),
    async (c) => {
      const viewer = await viewerOf(deps.db, authOf(c));
      const { pageNumber, peek, around } = c.req.valid("query");
      const ticketId = c.req.valid("param").ticketId;
      return c.json(await listMessages(deps, viewer, ticketId, pageNumber, peek, around));
    },
  );

  /** Issue 28: `{ messages }` of the ticket's contact's whole history that contain `q`. */
  app.get(
    "/:ticketId{[0-9]+}/search",
    signedIn,
    work,
    validate("param", ticketParam),
    validate("query", z.object({ q: searchText })),
    async (c) => {
      const viewer = await viewerOf(deps.db, authOf(c));
      const ticketId = c.req.valid("param").ticketId;
      return c.json(await searchConversation(deps, viewer, ticketId, c.req.valid("query").q));
    },
  );

  /** Issue 45: whether free text may go now (the 24-hour window) and the templates instead. */
  app.get(
    "/:ticketId{[0-9]+}/window",
    signedIn,
    work,
    validate("param", ticketParam),
    async (c) => {
      const viewer = await viewerOf(deps.db, authOf(c));
      return c.json(await ticketWindow(deps, viewer, c.req.valid("param").ticketId));
    },
  );

  /**
   * POST /api/messages/:ticketId: JSON or multipart {medias: one or more files, body?, ptt?,
   * quotedMsgId?}. Answers 201 {messages: MessageView[]} (ack 0: queued in the outbox); the
   * appMessage 'create' event carries each one with the updated ticket.
   */
  app.post("/:ticketId{[0-9]+}", signedIn, work, validate("param", ticketParam), async (c) => {
    const viewer = await viewerOf(deps.db, authOf(c));
    const ticketId = c.req.valid("param").ticketId;
    const type = c.req.header("content-type") ?? "";
    let messages;
    if (type.startsWith("multipart/form-data")) {
      const form = await c.req.parseBody({ all: true });
      const text = (value: unknown) => (typeof value === "string" ? value : "");
      const quoted = Number(text(form.quotedMsgId));
      messages = await sendMessages(deps, viewer, ticketId, {
        body: text(form.body),
        files: filesOf(form.medias),
        ptt: text(form.ptt) === "true",
        quotedMsgId: Number.isInteger(quoted) && quoted > 0 ? quoted : null,
      });
    } else {
      const parsed = sendJson.parse(
        await c.req.json().catch(() => {
          throw badRequest("ERR_VALIDATION", "Invalid JSON body");
        }),
      );
      const quoted = parsed.quotedMsg;
      messages = await sendMessages(deps, viewer, ticketId, {
        body: parsed.body,
        quotedMsgId: typeof quoted === "number" ? quoted : quoted?.id ?? null,
        template: parsed.template,
      });
    }
    return c.json({ messages }, 201);
  });

  /**
   * POST /api/messages/forward {messageIds, contactIds}: answers 200 {results: one per contact,
   * its ticket and queued messages or its error} (server/messages/forward.ts).
   */
  app.post(
    "/forward",
    signedIn,
    work,
    validate("header", forwardHeaders),
    validate("json", forwardJson),
    async (c) => {
      const idempotencyKey = c.req.valid("header")["idempotency-key"];
      return c.json(
        await forwardMessages(deps, authOf(c), { ...c.req.valid("json"), idempotencyKey }),
      );
    },
  );

  /** PUT /api/messages/:id {body}: edits a text we sent, within EDIT_WINDOW_MINUTES. */
  app.put(
    "/:id{[0-9]+}",
    signedIn,
    work,
    validate("param", idParam),
    validate("json", editJson),
    async (c) => {
      const viewer = await viewerOf(deps.db, authOf(c));
      const { id } = c.req.valid("param");
      return c.json(await editMessage(deps, viewer, id, c.req.valid("json").body));
    },
  );

  /** Issue 45: the attendant's reaction on a message ("" removes it; capability `reactions`). */
  app.post(
    "/:id{[0-9]+}/reaction",
    signedIn,
    work,
    validate("param", idParam),
    validate("json", z.object({ emoji: z.string().trim().max(16) })),
    async (c) => {
      const viewer = await viewerOf(deps.db, authOf(c));
      const { id } = c.req.valid("param");
      return c.json(await reactToMessage(deps, viewer, id, c.req.valid("json").emoji));
    },
  );

  app.delete("/:id{[0-9]+}", signedIn, work, validate("param", idParam), async (c) => {
    const viewer = await viewerOf(deps.db, authOf(c));
    return c.json(await deleteMessage(deps, viewer, c.req.valid("param").id));
  });

  return app;
}
