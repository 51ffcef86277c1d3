import type { Context, MiddlewareHandler } from "hono";

/**
 * A request body size limit, as hono/body-limit's but without its one side effect under
 * Deno.serve: to hand a streamed (chunked) body on, Hono builds `new Request(c.req.raw, ...)`,
 * which copies, and so reads, the original request's `signal`; Deno then prints its
 * "request.signal aborts on successful responses (legacy behavior)" warning (issue 50 item 18).
 * The new request here is made from the URL, method and headers only: nothing reads the signal,
 * and nothing of ours needs it.
 *
 * A declared Content-Length over the limit is refused before anything is read; a body without
 * one is read up to the limit and refused as soon as it passes it.
 */
export function bodyLimit(
  options: { maxSize: number; onError: (c: Context) => Response | Promise<Response> },
): MiddlewareHandler {
  const { maxSize, onError } = options;
  return async (c, next) => {
    const raw = c.req.raw;
    if (!raw.body) return await next();
    const declared = raw.headers.get("content-length");
    if (declared !== null && !raw.headers.has("transfer-encoding")) {
      return Number(declared) > maxSize ? await onError(c) : await next();
    }
    const chunks: Uint8Array[] = [];
    let size = 0;
    const reader = raw.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > maxSize) {
        await reader.cancel().catch(() => {});
        return await onError(c);
      }
      chunks.push(value);
    }
    const body = new Uint8Array(size);
    let offset = 0;
    for (const chunk of chunks) {
      body.set(chunk, offset);
      offset += chunk.byteLength;
    }
    const headers = new Headers(raw.headers);
    headers.delete("transfer-encoding");
    headers.set("content-length", String(size));
    c.req.raw = new Request(raw.url, { method: raw.method, headers, body });
    return await next();
  };
}
