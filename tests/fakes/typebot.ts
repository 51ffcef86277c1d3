import { Hono } from "hono";
import { serveFake } from "./serve.ts";

/**
 * typebot's chat API (docs.typebot.io 'Start chat', 'Continue chat'): a tiny flow per slug.
 * `support`: greets with a text bubble, an image bubble, and asks a choice (1 or 2); "1" answers
 * and asks again; "2" sends a bubble with the hand-over marker; anything else is rejected (no
 * messages, the same input). `images` are the image bubbles' URLs (default: its own logo);
 * `/moved?to=<url>` redirects there. `requests` lists every request it got.
 */
export function fakeTypebot(options: { images?: (origin: string) => string[] } = {}) {
  const sessions = new Map<string, { slug: string; variables: Record<string, unknown> }>();
  const calls: { path: string; body: Record<string, unknown> }[] = [];
  const requests: string[] = [];
  const app = new Hono();
  app.use(async (c, next) => {
    requests.push(`${c.req.method} ${c.req.path}`);
    await next();
  });
  app.get("/moved", (c) => c.redirect(c.req.query("to") ?? "/", 302));
  const input = { id: "choice", type: "choice input", items: [{ content: "1" }, { content: "2" }] };
  app.get(
    "/files/logo.png",
    (c) =>
      c.body(new Uint8Array([137, 80, 78, 71, 13, 10, 26, 10]), 200, {
        "content-type": "image/png",
      }),
  );
  app.post("/api/v1/typebots/:slug/startChat", async (c) => {
    const body = await c.req.json();
    calls.push({ path: c.req.path, body });
    if (c.req.param("slug") !== "support") return c.json({ message: "Typebot not found" }, 404);
    const sessionId = `s-${crypto.randomUUID()}`;
    sessions.set(sessionId, { slug: "support", variables: body.prefilledVariables ?? {} });
    const origin = new URL(c.req.url).origin;
    return c.json({
      sessionId,
      typebot: { id: "tb1", theme: {}, settings: {} },
      messages: [
        {
          id: "m1",
          type: "text",
          content: {
            type: "markdown",
            markdown: `Olá ${body.prefilledVariables?.name}! Sou o bot.`,
          },
        },
        ...(options.images?.(origin) ?? [`${origin}/files/logo.png`]).map((url, i) => ({
          id: `img${i}`,
          type: "image",
          content: { url },
        })),
        {
          id: "m3",
          type: "text",
          content: {
            type: "richText",
            richText: [{ type: "p", children: [{ text: "Digite " }, { text: "1 ou 2" }] }],
          },
        },
      ],
      input,
    });
  });
  app.post("/api/v1/sessions/:id/continueChat", async (c) => {
    const body = await c.req.json();
    calls.push({ path: c.req.path, body });
    if (!sessions.has(c.req.param("id"))) return c.json({ message: "Session not found" }, 404);
    const text = String(body.message?.text ?? "").trim();
    if (text === "1") {
      return c.json({
        messages: [{
          id: "a",
          type: "text",
          content: { type: "markdown", markdown: "Horário: 8h às 18h." },
        }],
        input,
      });
    }
    if (text === "2") {
      return c.json({
        messages: [{
          id: "b",
          type: "text",
          content: { type: "markdown", markdown: "Vou chamar uma pessoa. #atendente" },
        }],
        input,
      });
    }
    return c.json({ messages: [], input });
  });
  return { ...serveFake(app), calls, sessions, requests };
}
