/**
 * The /messages-api page's test forms call the send API exactly as an outside system would: a
 * plain fetch with the connection's token, not the signed-in user's session (so not through
 * lib/api.ts, whose 401 handling would end the user's session on a wrong connection token).
 */
export const SEND_PATH = "/api/messages/send";

export type ClientAnswer = { status: number; body: unknown };

export type TestSend = { token: string; number: string; body: string; file?: File | null };

export async function sendAsClient(
  input: TestSend,
  idempotencyKey?: string,
): Promise<ClientAnswer> {
  const headers: Record<string, string> = { authorization: `Bearer ${input.token}` };
  if (idempotencyKey) headers["idempotency-key"] = idempotencyKey;
  let body: BodyInit;
  if (input.file) {
    const form = new FormData();
    form.set("number", input.number);
    form.set("body", input.body);
    form.append("medias", input.file);
    body = form;
  } else {
    headers["content-type"] = "application/json";
    body = JSON.stringify({ number: input.number, body: input.body });
  }
  const res = await fetch(SEND_PATH, { method: "POST", headers, body });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // not JSON: shown as text
  }
  return { status: res.status, body: parsed };
}

/** The curl commands the page shows, for the endpoint of this server. */
export function curlExamples(origin: string, token: string) {
  const url = `${origin}${SEND_PATH}`;
  return {
    text: [
      `curl -X POST ${url} \\`,
      `  -H "Authorization: Bearer ${token}" \\`,
      `  -H "Content-Type: application/json" \\`,
      `  -H "Idempotency-Key: pedido-42" \\`,
      `  -d '{"number": "5513912344321", "body": "Seu pedido saiu para entrega"}'`,
    ].join("\n"),
    file: [
      `curl -X POST ${url} \\`,
      `  -H "Authorization: Bearer ${token}" \\`,
      `  -F number=5513912344321 \\`,
      `  -F body="Segue a nota fiscal" \\`,
      `  -F medias=@nota.pdf`,
    ].join("\n"),
  };
}
