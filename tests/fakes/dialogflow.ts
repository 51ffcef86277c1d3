import { Hono } from "hono";
import { exportPKCS8, generateKeyPair, jwtVerify } from "jose";
import { serveFake } from "./serve.ts";

/**
 * Google's OAuth token endpoint (JWT bearer grant, RFC 7523) and dialogflow ES v2 detectIntent,
 * as documented: the assertion must be an RS256 JWT signed by the service account's key, with
 * iss = client_email and aud = token_uri; detectIntent needs the bearer token it issued.
 * "atendente" matches an intent with endInteraction; anything else a small-talk answer.
 */
export async function fakeDialogflow() {
  const { publicKey, privateKey } = await generateKeyPair("RS256", { extractable: true });
  const pem = await exportPKCS8(privateKey);
  const issued = new Set<string>();
  const calls = { token: 0, detect: 0, sessions: [] as string[] };
  const app = new Hono();
  let origin = "";
  app.post("/token", async (c) => {
    calls.token++;
    const form = await c.req.parseBody();
    if (form.grant_type !== "urn:ietf:params:oauth:grant-type:jwt-bearer") {
      return c.json({ error: "unsupported_grant_type" }, 400);
    }
    try {
      await jwtVerify(String(form.assertion), publicKey, {
        issuer: "bot@balcao-test.iam.gserviceaccount.com",
        audience: `${origin}/token`,
      });
    } catch {
      return c.json({ error: "invalid_grant" }, 400);
    }
    const token = `ya29.${crypto.randomUUID()}`;
    issued.add(token);
    return c.json({ access_token: token, expires_in: 3599, token_type: "Bearer" });
  });
  app.post("/v2/projects/:project/agent/sessions/:session", async (c) => {
    calls.detect++;
    const token = c.req.header("authorization")?.replace(/^Bearer /, "") ?? "";
    if (!issued.has(token)) return c.json({ error: { code: 401 } }, 401);
    if (c.req.param("project") !== "balcao-test") return c.json({ error: { code: 404 } }, 404);
    calls.sessions.push(c.req.param("session"));
    const body = await c.req.json();
    const text = String(body.queryInput?.text?.text ?? "").toLowerCase();
    if (text.includes("atendente")) {
      return c.json({
        queryResult: {
          queryText: text,
          fulfillmentMessages: [{ text: { text: ["Transferindo para um atendente."] } }],
          intent: { displayName: "handover", endInteraction: true },
        },
      });
    }
    return c.json({
      queryResult: {
        queryText: text,
        fulfillmentText: "Olá! Em que posso ajudar?",
        fulfillmentMessages: [{ text: { text: ["Olá! Em que posso ajudar?"] } }],
        intent: { displayName: "Default Welcome Intent" },
      },
    });
  });
  // Hono routes ":session:detectIntent" poorly; the path's last segment carries the verb.
  const server = serveFake(
    new Hono().all("*", async (c) => {
      const url = new URL(c.req.url);
      url.pathname = url.pathname.replace(/:detectIntent$/, "");
      const body = c.req.method === "GET" ? undefined : await c.req.arrayBuffer();
      return app.fetch(
        new Request(url, { method: c.req.method, headers: c.req.raw.headers, body }),
      );
    }),
  );
  origin = server.url;
  const account = {
    type: "service_account",
    project_id: "balcao-test",
    private_key_id: "k1",
    private_key: pem,
    client_email: "bot@balcao-test.iam.gserviceaccount.com",
    token_uri: `${server.url}/token`,
  };
  return { ...server, account, calls };
}
