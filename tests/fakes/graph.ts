import { Hono } from "hono";
import { serveFake } from "./serve.ts";

/**
 * A fake of Meta's Graph API as the WhatsApp Cloud API uses it (issue 45), on port 0, under
 * `/v23.0` (point WHATSAPP_CLOUD_API_URL at `apiUrl`):
 *   GET  /{phone-number-id}            the number (display_phone_number, verified_name, quality)
 *   POST /{phone-number-id}/messages   a send (answers a wamid) or a mark-as-read ({success})
 *   POST /{phone-number-id}/media      a multipart upload (answers a media id)
 *   GET  /{media-id}                   the media's URL, then GET /files/{media-id} its bytes
 *   GET  /{waba-id}/message_templates  the templates, `pageSize` a page, with paging.next
 * Every request needs `Bearer <token>` (else Meta's 190; assign `token` to expire the old one). `failNext` answers the next send with
 * one of Meta's error shapes. `holdSends()` keeps every send's answer back (the request has
 * arrived, the caller never hears): a process killed meanwhile has sent without knowing Meta's id.
 * `webhook()` builds a post the way Meta signs it.
 */
export type GraphRequest = {
  method: string;
  path: string;
  body: unknown;
  form?: Record<string, string>;
};

export type FakeTemplate = {
  name: string;
  language: string;
  status: string;
  category: string;
  components: { type: string; text?: string }[];
};

export type FakeGraph = {
  url: string;
  apiUrl: string;
  token: string;
  phoneNumberId: string;
  businessAccountId: string;
  requests: GraphRequest[];
  /** The message sends (POST …/messages bodies that are not mark-as-read), in order. */
  sends(): Record<string, unknown>[];
  templates: FakeTemplate[];
  pageSize: number;
  media: Map<string, { data: Uint8Array; mimetype: string }>;
  failNext(error: { code: number; status?: number; message?: string }): void;
  /** Sends are recorded but not answered until the returned function is called. */
  holdSends(): () => void;
  webhook(
    payload: unknown,
    appSecret: string,
    options?: { wrongSignature?: boolean },
  ): Promise<{ body: string; headers: Record<string, string> }>;
  close(): Promise<void>;
};

/** Meta's text: non-ASCII characters \u-escaped, as its webhooks send (and sign) it. */
export function metaJson(payload: unknown): string {
  return JSON.stringify(payload).replace(
    /[\u007f-\uffff]/g,
    (c) => "\\u" + c.charCodeAt(0).toString(16).padStart(4, "0"),
  );
}

export async function hmacHex(secret: string, data: Uint8Array): Promise<string> {
  const key = await crypto.subtle.importKey(
    "raw",
    new TextEncoder().encode(secret),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
  const mac = new Uint8Array(await crypto.subtle.sign("HMAC", key, data as BufferSource));
  return Array.from(mac, (b) => b.toString(16).padStart(2, "0")).join("");
}

export function startFakeGraph(
  options: { token?: string; phoneNumberId?: string; businessAccountId?: string } = {},
): FakeGraph {
  const token = options.token ?? "EAAG-fake-token-1234567890";
  const phoneNumberId = options.phoneNumberId ?? "106540352242922";
  const businessAccountId = options.businessAccountId ?? "102290129340398";
  const requests: GraphRequest[] = [];
  const media = new Map<string, { data: Uint8Array; mimetype: string }>();
  const failures: { code: number; status?: number; message?: string }[] = [];
  let seq = 0;
  let held: Promise<void> | undefined;
  const app = new Hono();
  const metaError = (code: number, status: number, message: string) =>
    Response.json({
      error: { message, type: "OAuthException", code, error_data: { details: message } },
    }, { status: status as 400 });

  app.use("*", async (c, next) => {
    // fake.token, not the first one: a test changes it to expire the connection's token (190).
    if (c.req.header("authorization") !== `Bearer ${fake.token}`) {
      return metaError(190, 401, "Error validating access token: Session has expired");
    }
    await next();
  });

  app.get("/files/:id", (c) => {
    const found = media.get(c.req.param("id"));
    if (!found) return c.text("not found", 404);
    return new Response(found.data as BodyInit, { headers: { "content-type": found.mimetype } });
  });

  app.post("/v23.0/:phone/messages", async (c) => {
    const body = await c.req.json();
    requests.push({ method: "POST", path: c.req.path, body });
    if (c.req.param("phone") !== phoneNumberId) return metaError(100, 400, "Unsupported post");
    if (body.status === "read") return c.json({ success: true });
    if (held) await held;
    const failure = failures.shift();
    if (failure) return metaError(failure.code, failure.status ?? 400, failure.message ?? "error");
    const id = `wamid.FAKE${++seq}`;
    return c.json({
      messaging_product: "whatsapp",
      contacts: [{ input: body.to, wa_id: body.to }],
      messages: [{ id, message_status: "accepted" }],
    });
  });

  app.post("/v23.0/:phone/media", async (c) => {
    const form = await c.req.formData();
    const file = form.get("file") as File;
    const fields: Record<string, string> = {};
    for (const [k, v] of form.entries()) {
      fields[k] = typeof v === "string" ? v : `file:${(v as File).name}:${(v as File).size}`;
    }
    requests.push({ method: "POST", path: c.req.path, body: null, form: fields });
    const id = `media-up-${++seq}`;
    media.set(id, { data: new Uint8Array(await file.arrayBuffer()), mimetype: file.type });
    return c.json({ id });
  });

  app.get("/v23.0/:id/message_templates", (c) => {
    requests.push({ method: "GET", path: c.req.path, body: null });
    if (c.req.param("id") !== businessAccountId) return metaError(100, 400, "Unknown WABA");
    const after = Number(c.req.query("after") ?? 0);
    const data = fake.templates.slice(after, after + fake.pageSize);
    const next = after + fake.pageSize < fake.templates.length
      ? `${fake.apiUrl}/${businessAccountId}/message_templates?after=${after + fake.pageSize}`
      : undefined;
    return c.json({ data, paging: next ? { cursors: {}, next } : { cursors: {} } });
  });

  app.get("/v23.0/:id", (c) => {
    const id = c.req.param("id");
    requests.push({ method: "GET", path: c.req.path, body: null });
    if (id === phoneNumberId) {
      return c.json({
        id,
        display_phone_number: "+55 11 4000-1234",
        verified_name: "Loja Balcão",
        quality_rating: "GREEN",
      });
    }
    const found = media.get(id);
    if (!found) return metaError(100, 400, "Unsupported get request");
    return c.json({
      id,
      url: `${fake.url}/files/${id}`,
      mime_type: found.mimetype,
      sha256: "x",
      file_size: found.data.length,
      messaging_product: "whatsapp",
    });
  });

  const server = serveFake(app);
  const fake: FakeGraph = {
    url: server.url,
    apiUrl: `${server.url}/v23.0`,
    token,
    phoneNumberId,
    businessAccountId,
    requests,
    sends: () =>
      requests.filter((r) =>
        r.path.endsWith("/messages") && (r.body as { status?: string }).status !== "read"
      )
        .map((r) => r.body as Record<string, unknown>),
    templates: [],
    pageSize: 2,
    media,
    failNext: (error) => failures.push(error),
    holdSends() {
      const release = Promise.withResolvers<void>();
      held = release.promise;
      return () => {
        held = undefined;
        release.resolve();
      };
    },
    async webhook(payload, appSecret, opts = {}) {
      const body = metaJson(payload);
      const mac = await hmacHex(
        opts.wrongSignature ? "not-the-secret" : appSecret,
        new TextEncoder().encode(body),
      );
      return {
        body,
        headers: { "content-type": "application/json", "x-hub-signature-256": `sha256=${mac}` },
      };
    },
    close: server.close,
  };
  return fake;
}

/** One `messages` change for `phoneNumberId`, as Meta nests it. */
export function messagesPost(
  phoneNumberId: string,
  value: { contacts?: unknown[]; messages?: unknown[]; statuses?: unknown[] },
  wabaId = "102290129340398",
) {
  return {
    object: "whatsapp_business_account",
    entry: [{
      id: wabaId,
      changes: [{
        field: "messages",
        value: {
          messaging_product: "whatsapp",
          metadata: { display_phone_number: "551140001234", phone_number_id: phoneNumberId },
          ...value,
        },
      }],
    }],
  };
}
