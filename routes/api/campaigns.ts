import { Hono } from "hono";
import { z } from "zod";
import { allow, requireAuth } from "../../server/auth/middleware.ts";
import { type AppDeps, type AppEnv, authOf } from "../../server/context.ts";
import { requireCampaigns } from "../../server/campaigns/gate.ts";
import {
  attachCampaignMedia,
  cancelCampaign,
  createCampaign,
  deleteCampaign,
  listCampaigns,
  restartCampaign,
  showCampaign,
  updateCampaign,
} from "../../server/campaigns/service.ts";
import { name2to50, templateField } from "../../server/http/fields.ts";
import { idParam, pageNumber } from "../../server/http/params.ts";
import { validate } from "../../server/http/validate.ts";
import { fileField } from "../../server/media/uploads.ts";
import { parseWallClock } from "../../contract/time_zone.ts";
import { CONFIRMATION_FIELDS, MESSAGE_FIELDS } from "../../contract/campaign_rules.ts";

/** seeds/002 section 5: empty strings are sent as null; treat "" the same. */
const emptyAsNull = (v: unknown) => (v === "" ? null : v);
const text = z.preprocess(emptyAsNull, z.string().max(4096, "Too Long!").nullable()).optional();
const ref = z.preprocess(emptyAsNull, z.coerce.number().int().positive().nullable()).optional();

/**
 * seeds/002 section 5: scheduledAt is sent as YYYY-MM-DD HH:mm:ss, a time on the company's clock
 * (its zone setting: the service reads it, contract/time_zone.ts); an ISO instant with an offset
 * is accepted too (passed on as UTC ISO text).
 */
const scheduledAt = z.preprocess(
  emptyAsNull,
  z.string().nullable().transform((value, ctx) => {
    if (value === null) return null;
    if (parseWallClock(value)) return value;
    const parsed = z.iso.datetime({ offset: true }).safeParse(value);
    if (parsed.success) return new Date(parsed.data).toISOString();
    ctx.addIssue({ code: "custom", message: "Use o formato YYYY-MM-DD HH:mm:ss" });
    return z.NEVER;
  }),
).optional();

const fields = {
  name: name2to50,
  ...Object.fromEntries([...MESSAGE_FIELDS, ...CONFIRMATION_FIELDS].map((f) => [f, text])),
  confirmation: z.boolean().optional(),
  scheduledAt,
  whatsappId: ref,
  contactListId: ref,
  tagListId: ref,
  fileListId: ref,
  template: templateField.nullable().optional(),
} as const;
const createBody = z.object(fields);
const updateBody = z.object(fields).partial();

/** /api/campaigns (seeds/002 section 7 'Campaigns'). */
export function campaignRoutes(deps: AppDeps) {
  const app = new Hono<AppEnv>();
  app.use("*", requireAuth(deps), ...requireCampaigns(deps), allow("campaign:manage"));

  app.get(
    "/",
    validate("query", z.object({ searchParam: z.string().max(100).optional(), pageNumber })),
    async (c) => {
      const { searchParam, pageNumber } = c.req.valid("query");
      return c.json(await listCampaigns(deps, authOf(c).companyId, searchParam, pageNumber));
    },
  );

  app.get(
    "/:id{[0-9]+}",
    validate("param", idParam),
    validate("query", z.object({ shippingPage: pageNumber })),
    async (c) => {
      const { id } = c.req.valid("param");
      const { shippingPage } = c.req.valid("query");
      return c.json(await showCampaign(deps, authOf(c).companyId, id, shippingPage));
    },
  );

  app.post("/", validate("json", createBody), async (c) => {
    const input = c.req.valid("json") as Parameters<typeof createCampaign>[2];
    return c.json(await createCampaign(deps, authOf(c).companyId, input), 201);
  });

  app.put("/:id{[0-9]+}", validate("param", idParam), validate("json", updateBody), async (c) => {
    const input = c.req.valid("json") as Parameters<typeof updateCampaign>[3];
    return c.json(
      await updateCampaign(deps, authOf(c).companyId, c.req.valid("param").id, input),
    );
  });

  app.delete("/:id{[0-9]+}", validate("param", idParam), async (c) => {
    await deleteCampaign(deps, authOf(c).companyId, c.req.valid("param").id);
    return c.body(null, 204);
  });

  app.post("/:id{[0-9]+}/cancel", validate("param", idParam), async (c) => {
    return c.json(await cancelCampaign(deps, authOf(c).companyId, c.req.valid("param").id));
  });

  app.post("/:id{[0-9]+}/restart", validate("param", idParam), async (c) => {
    return c.json(await restartCampaign(deps, authOf(c).companyId, c.req.valid("param").id));
  });

  app.post("/:id{[0-9]+}/media-upload", validate("param", idParam), async (c) => {
    const file = fileField(await c.req.parseBody());
    const id = c.req.valid("param").id;
    return c.json(await attachCampaignMedia(deps, authOf(c).companyId, id, file));
  });

  app.delete("/:id{[0-9]+}/media-upload", validate("param", idParam), async (c) => {
    const id = c.req.valid("param").id;
    return c.json(await attachCampaignMedia(deps, authOf(c).companyId, id, null));
  });

  return app;
}
