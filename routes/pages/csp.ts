import { createHash } from "node:crypto";
import { HEAD_SCRIPT } from "../../islands/lib/head_script.ts";

/**
 * The Content-Security-Policy of every page (issue 35, findings 2 and 6). Scripts come only from
 * our origin (the island bundles, Swagger UI's files): no inline script runs but the head script
 * (theme and guard before the first paint), allowed by its hash; the island data is a
 * `<script type="application/json">` block, which is never run. So an SVG or HTML that somehow
 * rendered on our origin (a blob: document keeps this policy too) cannot run its script.
 *
 * - styles: 'unsafe-inline' for the style attributes React renders (colours, sizes);
 * - images: ours, data: (QR codes), blob: (media fetched with the token) and https: (contacts'
 *   WhatsApp pictures, YouTube thumbnails); media: ours and blob:;
 * - frames: only YouTube's privacy-enhanced player (help videos); no plugins; no <base>;
 *   forms post only to us; no one frames us.
 */
const headHash = createHash("sha256").update(HEAD_SCRIPT).digest("base64");

export const PAGE_POLICY = [
  "default-src 'self'",
  `script-src 'self' 'sha256-${headHash}'`,
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob: https:",
  "media-src 'self' blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "frame-src https://www.youtube-nocookie.com",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join("; ");
