import { Hono } from "hono";
import { z } from "zod";
import { allow, requireAuth } from "../../server/auth/middleware.ts";
import { type AppDeps, type AppEnv, authOf } from "../../server/context.ts";
import { validate } from "../../server/http/validate.ts";
import { capabilitiesOf, CHANNEL_KINDS, type ChannelKind } from "../../contract/channels.ts";
import { testCloudConnection } from "../../server/whatsapp/providers/cloud_api/service.ts";
import { syncTemplates, templatesOf } from "../../server/whatsapp/providers/cloud_api/templates.ts";
import { idParam } from "../../server/http/params.ts";
import {
  createConnection,
  deleteConnection,
  listConnections,
  regenerateToken,
  requestPairingCode,
  sessionAction,
  showConnection,
  updateConnection,
} from "../../server/whatsapp/service.ts";

const text = (max: number) => z.string().max(max);
const minutes = z.coerce.number().int().min(0).max(525_600);

/** Connection fields (seeds/000 sections 3 and 9); name 2..50 as in section 5. */
const fields = {
  name: z.string().trim().min(2, "Too Short!").max(50, "Too Long!"),
  isDefault: z.boolean().optional(),
  greetingMessage: text(5000).optional(),
  complationMessage: text(5000).optional(),
  outOfHoursMessage: text(5000).optional(),
  ratingMessage: text(5000).optional(),
  // Accepted for older clients and ignored: the token is generated (POST /:id/token).
  token: text(200).optional(),
  provider: z.enum(CHANNEL_KINDS as [ChannelKind, ...ChannelKind[]]).optional(),
  timeSendQueue: minutes.optional(),
  sendIdQueue: z.coerce.number().int().min(0).optional(),
  expiresInactiveMessage: text(5000).optional(),
  expiresTicket: minutes.optional(),
  timeUseBotQueues: minutes.optional(),
  maxUseBotQueues: z.coerce.number().int().min(0).max(100).optional(),
  queueIds: z.array(z.coerce.number().int().positive()).max(500).optional(),
  promptId: z.coerce.number().int().positive().nullable().optional(),
  integrationId: z.coerce.number().int().positive().nullable().optional(),
  // Sent back by the page's form; the session manager owns these, so they are ignored here.
  status: z.string().optional(),
  qrcode: z.string().optional(),
};
/** A Cloud API connection's Graph ids and secrets (capability `credentials`). */
const cloudFields = {
  phoneNumberId: z.string().trim().regex(/^\d{5,30}$/, "Invalid").optional(),
  businessAccountId: z.string().trim().regex(/^\d{5,30}$/, "Invalid").optional(),
  accessToken: z.string().trim().min(10).max(1000).optional(),
  appSecret: z.string().trim().min(8).max(200).optional(),
  verifyToken: z.string().trim().min(8).max(200).optional(),
};
const createBody = z.object({ ...fields, ...cloudFields }).superRefine((body, ctx) => {
  if (!body.provider || !capabilitiesOf(body.provider).credentials) return;
  for (const key of Object.keys(cloudFields) as (keyof typeof cloudFields)[]) {
    if (!body[key]) ctx.addIssue({ code: "custom", path: [key], message: "Required" });
  }
});

/** The create body as the service takes it: the credentials apart. */
function creation(body: z.infer<typeof createBody>) {
  const { phoneNumberId, businessAccountId, accessToken, appSecret, verifyToken, ...rest } =
    editable(body);
  const cloud = phoneNumberId && businessAccountId && accessToken && appSecret && verifyToken
    ? { phoneNumberId, businessAccountId, accessToken, appSecret, verifyToken }
    : undefined;
  return { ...rest, cloud };
}
/** Editing: a blank credential keeps the stored one (secrets are never shown again). */
const blankKept = {
  phoneNumberId: cloudFields.phoneNumberId.or(z.literal("")),
  businessAccountId: cloudFields.businessAccountId.or(z.literal("")),
  accessToken: cloudFields.accessToken.or(z.literal("")),
  appSecret: cloudFields.appSecret.or(z.literal("")),
  verifyToken: cloudFields.verifyToken.or(z.literal("")),
};
const updateBody = z.object({ ...fields, ...blankKept, name: fields.name.optional() });

/** The update body as the service takes it: credentials typed again apart (blank: kept). */
function update(body: z.infer<typeof updateBody>) {
  const { phoneNumberId, businessAccountId, accessToken, appSecret, verifyToken, ...rest } =
    editable(body);
  const typed = { phoneNumberId, businessAccountId, accessToken, appSecret, verifyToken };
  const credentials = Object.values(typed).some(Boolean) ? typed : undefined;
  return { ...rest, credentials };
}
/** The number to link (country and area code), for pairing by code instead of the QR. */
const pairingBody = z.object({ phoneNumber: z.string().trim().min(1, "Required").max(30) });

/** strip what the session manager owns */
function editable<T extends { status?: string; qrcode?: string }>(body: T) {
  const { status: _status, qrcode: _qrcode, ...rest } = body;
  return rest;
}

/**
 * /api/whatsapp: connections. Everyone signed in may list and read them (the /connections page
 * is for every user); adding, editing and deleting are for admins (seeds/000 section 6:
 * connections-page:addConnection, connections-page:editOrDeleteConnection).
 */
export function whatsappRoutes(deps: AppDeps) {
  const app = new Hono<AppEnv>();
  app.use("*", requireAuth(deps), allow("connection:read"));

  app.get("/", async (c) => c.json(await listConnections(deps, authOf(c))));

  app.get("/:id", validate("param", idParam), async (c) => {
    return c.json(await showConnection(deps, authOf(c), c.req.valid("param").id));
  });

  app.post("/", allow("connection:create"), validate("json", createBody), async (c) => {
    const view = await createConnection(deps, authOf(c), creation(c.req.valid("json")));
    return c.json(view, 201);
  });

  app.put(
    "/:id",
    allow("connection:manage"),
    validate("param", idParam),
    validate("json", updateBody),
    async (c) => {
      const { id } = c.req.valid("param");
      return c.json(await updateConnection(deps, authOf(c), id, update(c.req.valid("json"))));
    },
  );

  // A Cloud API connection: 'Testar' reads the number from the Graph API; templates (issue 45).
  app.post("/:id/test", allow("connection:manage"), validate("param", idParam), async (c) => {
    const { id } = c.req.valid("param");
    return c.json(await testCloudConnection(deps, authOf(c).companyId, id));
  });

  app.post(
    "/:id/templates/sync",
    allow("connection:manage"),
    validate("param", idParam),
    async (c) => {
      return c.json(await syncTemplates(deps, authOf(c).companyId, c.req.valid("param").id));
    },
  );

  app.get("/:id/templates", validate("param", idParam), async (c) => {
    return c.json(await templatesOf(deps, authOf(c).companyId, c.req.valid("param").id));
  });

  app.post("/:id/token", allow("connection:manage"), validate("param", idParam), async (c) => {
    return c.json(await regenerateToken(deps, authOf(c), c.req.valid("param").id));
  });

  app.delete("/:id", allow("connection:manage"), validate("param", idParam), async (c) => {
    await deleteConnection(deps, authOf(c), c.req.valid("param").id);
    return c.json({ message: "Whatsapp deleted." });
  });

  return app;
}

/**
 * /api/whatsappsession/:id: POST starts or retries the session, PUT asks for a new QR (the
 * credentials are forgotten), DELETE disconnects (logs out), POST /:id/pairing-code {phoneNumber}
 * answers {code} to type on the phone instead of reading the QR. Admins only
 * (connections-page:actionButtons). The answer is the connection as it is right after.
 */
export function whatsappSessionRoutes(deps: AppDeps) {
  const app = new Hono<AppEnv>();
  app.use("*", requireAuth(deps), allow("connection:connect"));

  app.post("/:id", validate("param", idParam), async (c) => {
    const view = await sessionAction(deps, authOf(c), c.req.valid("param").id, "start");
    return c.json({ message: "Starting session.", whatsapp: view });
  });

  app.put("/:id", validate("param", idParam), async (c) => {
    const view = await sessionAction(deps, authOf(c), c.req.valid("param").id, "newQr");
    return c.json({ message: "Starting session.", whatsapp: view });
  });

  app.post(
    "/:id/pairing-code",
    validate("param", idParam),
    validate("json", pairingBody),
    async (c) => {
      const { id } = c.req.valid("param");
      const code = await requestPairingCode(deps, authOf(c), id, c.req.valid("json").phoneNumber);
      return c.json({ code });
    },
  );

  app.delete("/:id", validate("param", idParam), async (c) => {
    const view = await sessionAction(deps, authOf(c), c.req.valid("param").id, "disconnect");
    return c.json({ message: "Session disconnected.", whatsapp: view });
  });

  return app;
}
