import { createCompany, type TestApp, type TestCompany, withApp } from "../helpers/app.ts";
import { eventually } from "../helpers/eventually.ts";
import { type FakeGraph, type FakeTemplate, startFakeGraph } from "../fakes/graph.ts";

export const APP_SECRET = "app-secret-0123456789abcdef";

/** An approved template with two body variables, as Meta lists it (the tests' usual one). */
export const ORDER_READY: FakeTemplate = {
  name: "pedido_pronto",
  language: "pt_BR",
  status: "APPROVED",
  category: "UTILITY",
  components: [{ type: "BODY", text: "Olá {{1}}, seu pedido {{2}} está pronto." }],
};
export const VERIFY_TOKEN = "verify-token-balcao-42";

export type CloudSetup = {
  t: TestApp;
  graph: FakeGraph;
  a: TestCompany;
  whatsappId: number;
  webhookUrl: string;
  /** The webhook's path on our app (webhookUrl without the public origin). */
  webhookPath: string;
};

/** The connection's create body for the fake's number. */
export function cloudBody(graph: FakeGraph, name = "Oficial") {
  return {
    name,
    provider: "cloud_api",
    phoneNumberId: graph.phoneNumberId,
    businessAccountId: graph.businessAccountId,
    accessToken: graph.token,
    appSecret: APP_SECRET,
    verifyToken: VERIFY_TOKEN,
  };
}

/** An app pointed at a fake Graph API, with one company and its connected Cloud API number. */
export async function withCloud(fn: (s: CloudSetup) => Promise<void>) {
  const graph = startFakeGraph();
  try {
    await withApp(async (t) => {
      const a = await createCompany(t, "Alpha");
      const res = await t.request("POST", "/api/whatsapp", {
        token: a.admin.token,
        body: cloudBody(graph),
      });
      if (res.status !== 201) throw new Error(`create: ${res.status} ${await res.text()}`);
      const created = await res.json();
      await eventually(async () => {
        const row = await t.deps.db.selectFrom("whatsapps").select("status")
          .where("id", "=", created.id).executeTakeFirstOrThrow();
        return row.status === "CONNECTED";
      }, { what: "the Cloud API connection is CONNECTED" });
      const webhookUrl: string = created.cloud.webhookUrl;
      await fn({
        t,
        graph,
        a,
        whatsappId: created.id,
        webhookUrl,
        webhookPath: new URL(webhookUrl).pathname,
      });
    }, { WHATSAPP_CLOUD_API_URL: graph.apiUrl, PUBLIC_URL: "https://balcao.example" });
  } finally {
    await graph.close();
  }
}

/** Posts a signed webhook the way Meta does; answers our app's response. */
export async function postWebhook(
  s: CloudSetup,
  payload: unknown,
  options: { wrongSignature?: boolean } = {},
): Promise<Response> {
  const signed = await s.graph.webhook(payload, APP_SECRET, options);
  return await s.t.request("POST", s.webhookPath, { body: signed.body, headers: signed.headers });
}
