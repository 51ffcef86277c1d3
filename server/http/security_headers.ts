import type { MiddlewareHandler } from "hono";

/**
 * The security headers of every answer, pages and API alike (README 'Security'):
 *
 * - `X-Content-Type-Options: nosniff`: a file is what its type says, never sniffed into HTML;
 * - `Referrer-Policy: same-origin`: no URL of ours (a recovery link's token) goes to another site;
 * - `X-Frame-Options: DENY` and CSP `frame-ancestors 'none'`: no page of ours in another's frame;
 * - `Content-Security-Policy`: pages get the page policy (routes/pages/csp.ts: scripts only from
 *   our origin); anything else `default-src 'none'` (a JSON answer runs nothing), unless the
 *   route chose its own (stored files are sandboxed: server/media/uploads.ts);
 * - pages: `Cross-Origin-Opener-Policy: same-origin`; with an https PUBLIC_URL,
 *   `Strict-Transport-Security`.
 */
export const API_POLICY = "default-src 'none'; frame-ancestors 'none'";

export function securityHeaders(
  options: { pagePolicy: string; https: boolean },
): MiddlewareHandler {
  return async (c, next) => {
    await next();
    // A WebSocket upgrade's answer is the runtime's; nothing of a page in it.
    if (c.res.status === 101) return;
    let headers = c.res.headers;
    try {
      headers.set("x-content-type-options", "nosniff");
    } catch {
      // An answer with immutable headers: copied once to a mutable one.
      c.res = new Response(c.res.body, c.res);
      headers = c.res.headers;
      headers.set("x-content-type-options", "nosniff");
    }
    headers.set("referrer-policy", "same-origin");
    headers.set("x-frame-options", "DENY");
    const page = (headers.get("content-type") ?? "").startsWith("text/html");
    if (!headers.has("content-security-policy")) {
      headers.set("content-security-policy", page ? options.pagePolicy : API_POLICY);
    }
    if (page) headers.set("cross-origin-opener-policy", "same-origin");
    if (options.https) headers.set("strict-transport-security", "max-age=31536000");
  };
}
