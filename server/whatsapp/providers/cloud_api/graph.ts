import { GraphError } from "./errors.ts";

/**
 * Meta's Graph API as the Cloud API uses it: a base URL (WHATSAPP_CLOUD_API_URL, with the
 * version) and a connection's bearer token. Every answer that is not 2xx becomes a GraphError
 * with Meta's code; a network failure stays a plain error (transient).
 */
export class GraphClient {
  constructor(
    private readonly baseUrl: string,
    private readonly token: string,
    private readonly timeoutMs = 20_000,
  ) {}

  async get<T>(path: string, query: Record<string, string> = {}): Promise<T> {
    const url = new URL(path.startsWith("http") ? path : `${this.baseUrl}/${path}`);
    for (const [k, v] of Object.entries(query)) url.searchParams.set(k, v);
    return await this.#call<T>(url.toString(), { method: "GET" });
  }

  async post<T>(path: string, body: unknown): Promise<T> {
    return await this.#call<T>(`${this.baseUrl}/${path}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
  }

  async upload<T>(path: string, form: FormData): Promise<T> {
    return await this.#call<T>(`${this.baseUrl}/${path}`, { method: "POST", body: form });
  }

  /** A media URL Meta handed out (GET /{media-id}): its bytes, with the same bearer token. */
  async download(url: string): Promise<Uint8Array> {
    const res = await fetch(url, {
      headers: { authorization: `Bearer ${this.token}` },
      signal: AbortSignal.timeout(this.timeoutMs),
    });
    if (!res.ok) throw await graphError(res);
    return new Uint8Array(await res.arrayBuffer());
  }

  async #call<T>(url: string, init: RequestInit): Promise<T> {
    const res = await fetch(url, {
      ...init,
      headers: { ...init.headers as Record<string, string>, authorization: `Bearer ${this.token}` },
      signal: AbortSignal.timeout(this.timeoutMs),
    });
    if (!res.ok) throw await graphError(res);
    return await res.json() as T;
  }
}

async function graphError(res: Response): Promise<GraphError> {
  const text = await res.text().catch(() => "");
  try {
    const body = JSON.parse(text) as { error?: { code?: unknown; message?: unknown } };
    const code = typeof body.error?.code === "number" ? body.error.code : undefined;
    const message = typeof body.error?.message === "string" ? body.error.message : res.statusText;
    return new GraphError(res.status, code, message);
  } catch {
    return new GraphError(res.status, undefined, text.slice(0, 200) || res.statusText);
  }
}
