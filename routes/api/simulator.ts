import { Hono } from "hono";
import { z } from "zod";
import { allow, requireAuth } from "../../server/auth/middleware.ts";
import { type AppDeps, type AppEnv, authOf } from "../../server/context.ts";
import { AppError, badRequest, notFound } from "../../server/errors.ts";
import { validate } from "../../server/http/validate.ts";
import { locationBody, vcardBody } from "../../server/whatsapp/inbound/bodies.ts";
import { findWhatsapp } from "../../server/whatsapp/repository.ts";
import type { SimulatedMessage } from "../../server/whatsapp/providers/simulator/provider.ts";
import { simulatorNumber } from "../../server/whatsapp/providers/simulator/provider.ts";

const idParam = z.object({ whatsappId: z.coerce.number().int().positive() });
const digits = z.string().trim().regex(/^\+?\d[\d\s()-]*$/, "Invalid number");
const wid = z.string().trim().min(1).max(200);

/** Who the phone side is: a number, optionally its LID, or a group (with `from` as the author). */
const party = {
  from: digits.optional(),
  lid: z.string().trim().regex(/^\d{1,30}$/, "Invalid LID").optional(),
  group: z.string().trim().regex(/^[\d-]{5,40}$/, "Invalid group id").optional(),
};

const messageBody = z.object({
  ...party,
  name: z.string().trim().max(100).optional(),
  avatarUrl: z.url().max(2000).optional(),
  body: z.string().max(65_536).optional(),
  media: z.object({
    base64: z.string().min(1),
    mimetype: z.string().min(1).max(200),
    filename: z.string().max(255).optional(),
  }).optional(),
  location: z.object({
    latitude: z.number().min(-90).max(90),
    longitude: z.number().min(-180).max(180),
    name: z.string().max(500).optional(),
  }).optional(),
  vcard: z.object({ name: z.string().min(1).max(100), number: digits }).optional(),
  quotedId: wid.optional(),
  id: wid.optional(),
  /** Written on the connected phone itself, to `from` (shown as fromMe). */
  fromMe: z.boolean().optional(),
});
const editBody = z.object({ ...party, id: wid, body: z.string().max(65_536) });
const revokeBody = z.object({ ...party, id: wid });
const callBody = z.object({ from: digits, isVideo: z.boolean().optional(), id: wid.optional() });
const readBody = z.object({ to: digits, ids: z.array(wid).max(1000).optional() });
const sentQuery = z.object({
  to: digits.optional(),
  after: z.coerce.number().int().min(0).optional(),
  limit: z.coerce.number().int().min(1).max(1000).optional(),
});

function phoneDigits(value: string): string {
  const clean = value.replace(/\D/g, "");
  if (clean.length < 8 || clean.length > 15) {
    throw badRequest("ERR_WAPP_INVALID_CONTACT", "Este não é um número de Whatsapp válido");
  }
  return clean;
}

/** The JIDs of a phone-side party (chat, phone, LID, group author). */
function jidsOf(input: { from?: string; lid?: string; group?: string }) {
  const phone = input.from ? phoneDigits(input.from) : undefined;
  if (input.group) {
    return {
      chatJid: `${input.group}@g.us`,
      participantJid: phone ? `${phone}@s.whatsapp.net` : undefined,
    };
  }
  if (!phone && !input.lid) {
    throw badRequest("ERR_VALIDATION", "from, lid or group is required", {
      from: ["Required"],
    });
  }
  return {
    chatJid: input.lid ? `${input.lid}@lid` : `${phone}@s.whatsapp.net`,
    phoneJid: phone ? `${phone}@s.whatsapp.net` : undefined,
    lidJid: input.lid ? `${input.lid}@lid` : undefined,
  };
}

function decodeBase64(base64: string): Uint8Array {
  try {
    const binary = atob(base64.replace(/^data:[^,]*,/, "").replace(/\s/g, ""));
    const bytes = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
    return bytes;
  } catch {
    throw badRequest("ERR_INVALID_MEDIA", "media.base64 is not valid base64");
  }
}

/**
 * /api/simulator/:whatsappId: the built-in phone network, acting as the phones around a
 * "simulator" connection (for demos, tests and the /simulator page). Any signed-in user of the
 * company may use it: it is a demo tool and only reaches the company's own simulator
 * connections (another company's, or a real number's, answer 404 ERR_NO_WAPP_FOUND).
 */
export function simulatorRoutes(deps: AppDeps) {
  const app = new Hono<AppEnv>();
  app.use("*", requireAuth(deps), allow("simulator:use"));

  const connection = async (companyId: number, whatsappId: number) => {
    const row = await findWhatsapp(deps.db, companyId, whatsappId);
    if (!row || row.provider !== "simulator") {
      throw notFound("ERR_NO_WAPP_FOUND", "Conexão do simulador não encontrada");
    }
    return row;
  };
  const phone = async (companyId: number, whatsappId: number) => {
    await connection(companyId, whatsappId);
    const provider = deps.simulator.phone(whatsappId);
    if (!provider) {
      throw new AppError(409, "ERR_WAPP_NOT_INITIALIZED", "A sessão do simulador não foi iniciada");
    }
    return provider;
  };

  app.get("/:whatsappId", validate("param", idParam), async (c) => {
    const { whatsappId } = c.req.valid("param");
    const row = await connection(authOf(c).companyId, whatsappId);
    const provider = deps.simulator.phone(whatsappId);
    return c.json({
      whatsappId,
      status: row.status,
      state: provider?.state ?? "idle",
      qr: provider?.qr ?? "",
      number: row.number ?? (provider?.state === "connected" ? simulatorNumber(whatsappId) : null),
      rejectedCalls: provider?.rejectedCalls ?? [],
    });
  });

  app.post("/:whatsappId/scan", validate("param", idParam), async (c) => {
    const { whatsappId } = c.req.valid("param");
    const number = await (await phone(authOf(c).companyId, whatsappId)).scan();
    return c.json({ status: "CONNECTED", number });
  });

  app.post("/:whatsappId/unlink", validate("param", idParam), async (c) => {
    const { whatsappId } = c.req.valid("param");
    await (await phone(authOf(c).companyId, whatsappId)).unlink();
    return c.json({ status: "DISCONNECTED" });
  });

  app.post(
    "/:whatsappId/messages",
    validate("param", idParam),
    validate("json", messageBody),
    async (c) => {
      const { whatsappId } = c.req.valid("param");
      const input = c.req.valid("json");
      const provider = await phone(authOf(c).companyId, whatsappId);
      const jids = jidsOf(input);
      const message: SimulatedMessage = {
        ...jids,
        pushName: input.name,
        body: input.body ?? "",
        quotedId: input.quotedId,
        id: input.id,
        fromMe: input.fromMe,
      };
      if (input.media) {
        message.media = {
          data: decodeBase64(input.media.base64),
          mimetype: input.media.mimetype,
          filename: input.media.filename,
        };
      } else if (input.location) {
        message.mediaType = "locationMessage";
        message.body = locationBody(
          input.location.latitude,
          input.location.longitude,
          input.location.name,
        );
      } else if (input.vcard) {
        message.mediaType = "vcard";
        message.body = vcardBody(input.vcard.name, phoneDigits(input.vcard.number));
      } else if (!message.body.trim()) {
        throw badRequest("ERR_VALIDATION", "body, media, location or vcard is required", {
          body: ["Required"],
        });
      }
      if (input.avatarUrl) {
        deps.simulator.avatars.set(jids.phoneJid ?? jids.chatJid, input.avatarUrl);
      }
      const outcome = await provider.receive(message);
      if (outcome.ignored) return c.json({ stored: false, ignored: outcome.ignored }, 202);
      const stored = await deps.db.selectFrom("messages").select(["id", "wid", "ticketId"])
        .where("companyId", "=", authOf(c).companyId).where("id", "=", outcome.messageId ?? 0)
        .executeTakeFirst();
      return c.json({
        stored: true,
        duplicate: outcome.duplicate === true,
        id: stored?.id ?? null,
        wid: stored?.wid ?? null,
        ticketId: stored?.ticketId ?? null,
      }, outcome.duplicate ? 200 : 201);
    },
  );

  app.post(
    "/:whatsappId/edit",
    validate("param", idParam),
    validate("json", editBody),
    async (c) => {
      const { whatsappId } = c.req.valid("param");
      const input = c.req.valid("json");
      const provider = await phone(authOf(c).companyId, whatsappId);
      const outcome = await provider.edit(jidsOf(input).chatJid, input.id, input.body);
      return c.json({ updated: outcome.messageId !== undefined, id: outcome.messageId ?? null });
    },
  );

  app.post(
    "/:whatsappId/revoke",
    validate("param", idParam),
    validate("json", revokeBody),
    async (c) => {
      const { whatsappId } = c.req.valid("param");
      const input = c.req.valid("json");
      const provider = await phone(authOf(c).companyId, whatsappId);
      const outcome = await provider.revoke(jidsOf(input).chatJid, input.id);
      return c.json({ updated: outcome.messageId !== undefined, id: outcome.messageId ?? null });
    },
  );

  app.post(
    "/:whatsappId/call",
    validate("param", idParam),
    validate("json", callBody),
    async (c) => {
      const { whatsappId } = c.req.valid("param");
      const input = c.req.valid("json");
      const provider = await phone(authOf(c).companyId, whatsappId);
      const from = `${phoneDigits(input.from)}@s.whatsapp.net`;
      const before = provider.rejectedCalls.length;
      const outcome = await provider.call(from, input.isVideo === true, input.id);
      return c.json({
        id: outcome.messageId ?? null,
        ticketId: outcome.ticketId ?? null,
        duplicate: outcome.duplicate === true,
        rejected: provider.rejectedCalls.length > before,
      });
    },
  );

  app.post(
    "/:whatsappId/read",
    validate("param", idParam),
    validate("json", readBody),
    async (c) => {
      const { whatsappId } = c.req.valid("param");
      const input = c.req.valid("json");
      const provider = await phone(authOf(c).companyId, whatsappId);
      const count = await provider.read(`${phoneDigits(input.to)}@s.whatsapp.net`, input.ids);
      return c.json({ read: count });
    },
  );

  app.get(
    "/:whatsappId/sent",
    validate("param", idParam),
    validate("query", sentQuery),
    async (c) => {
      const { whatsappId } = c.req.valid("param");
      const { to, after, limit } = c.req.valid("query");
      const companyId = authOf(c).companyId;
      await connection(companyId, whatsappId);
      let query = deps.db.selectFrom("simulator_sent").selectAll().where(
        "companyId",
        "=",
        companyId,
      )
        .where("whatsappId", "=", whatsappId);
      if (to) query = query.where("toJid", "=", `${phoneDigits(to)}@s.whatsapp.net`);
      if (after) query = query.where("id", ">", after);
      const rows = await query.orderBy("id").limit((limit ?? 500) + 1).execute();
      const page = rows.slice(0, limit ?? 500);
      return c.json({
        sent: page.map((r) => ({
          seq: r.id,
          id: r.wid,
          to: r.toJid.split("@")[0],
          toJid: r.toJid,
          body: r.body,
          media: r.mediaMimetype
            ? {
              mimetype: r.mediaMimetype,
              filename: r.mediaName,
              size: r.mediaSize,
              ptt: r.ptt === 1,
            }
            : null,
          quotedId: r.quotedId,
          ack: r.ack,
          deleted: r.deleted === 1,
          createdAt: r.createdAt,
        })),
        hasMore: rows.length > page.length,
      });
    },
  );

  return app;
}
