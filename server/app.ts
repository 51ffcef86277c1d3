import { Hono } from "hono";
import { apiRoutes } from "../routes/api/index.ts";
import { metricsRoutes } from "../routes/metrics.ts";
import { countRequests } from "./metrics/http.ts";
import { notFoundPage, pageRoutes } from "../routes/pages/index.ts";
import { PAGE_POLICY } from "../routes/pages/csp.ts";
import { bodyLimit } from "./http/body_limit.ts";
import { securityHeaders } from "./http/security_headers.ts";
import type { AppDeps, AppEnv } from "./context.ts";
import { AppError } from "./errors.ts";
import { renderError } from "./http/errors.ts";
import { socketHandler } from "./realtime/socket.ts";

const SIMULATOR_MESSAGES = /^\/api\/simulator\/[^/]+\/messages\/?$/;
/** Spreadsheet imports: their own, smaller upload limit (IMPORT_MAX_BYTES). */
const IMPORTS = /^\/api\/(contacts\/import|contact-lists\/[^/]+\/upload)\/?$/;

/** The whole HTTP surface: /api, /socket, pages and static files. */
export function createApp(deps: AppDeps): Hono<AppEnv> {
  // Not strict: the specification names some paths with a trailing slash (GET /whatsapp/, /chats/).
  const app = new Hono<AppEnv>({ strict: false });

  // First, so that every answer is counted, errors and refusals included.
  app.use("*", countRequests);
  // Every answer, errors and 404s included (README 'Security').
  app.use(
    "*",
    securityHeaders({
      pagePolicy: PAGE_POLICY,
      https: deps.config.publicUrl.startsWith("https:"),
    }),
  );

  // JSON bodies are small (BODY_LIMIT_BYTES); multipart uploads get MEDIA_MAX_BYTES, spreadsheet
  // imports IMPORT_MAX_BYTES.
  const tooLarge = () => {
    throw new AppError(413, "ERR_BODY_TOO_LARGE", "Request body too large");
  };
  const jsonLimit = bodyLimit({ maxSize: deps.config.bodyLimitBytes, onError: tooLarge });
  // An upload over the limit is an attachment too large (the code the media forms translate).
  const mediaTooLarge = () => {
    throw new AppError(413, "ERR_MEDIA_TOO_LARGE", "Arquivo maior que o limite permitido");
  };
  const uploadLimit = bodyLimit({ maxSize: deps.config.mediaMaxBytes, onError: mediaTooLarge });
  // The simulator's phone sends media as base64 inside JSON (issue 3): a file up to
  // MEDIA_MAX_BYTES, grown by a third, plus the rest of the body.
  const simulatorLimit = bodyLimit({
    maxSize: Math.ceil(deps.config.mediaMaxBytes * 4 / 3) + deps.config.bodyLimitBytes,
    onError: mediaTooLarge,
  });
  const importTooLarge = () => {
    throw new AppError(
      413,
      "ERR_IMPORT_TOO_LARGE",
      `A planilha passa de ${Math.floor(deps.config.importMaxBytes / 1024 / 1024)} MB`,
    );
  };
  const importLimit = bodyLimit({ maxSize: deps.config.importMaxBytes, onError: importTooLarge });
  app.use("/api/*", (c, next) => {
    if (c.req.method === "POST" && IMPORTS.test(c.req.path)) return importLimit(c, next);
    const multipart = (c.req.header("content-type") ?? "").startsWith("multipart/form-data");
    if (multipart) return uploadLimit(c, next);
    if (c.req.method === "POST" && SIMULATOR_MESSAGES.test(c.req.path)) {
      return simulatorLimit(c, next);
    }
    return jsonLimit(c, next);
  });

  app.route("/api", apiRoutes(deps));
  app.get("/socket", socketHandler(deps));
  app.route("/metrics", metricsRoutes(deps));
  app.route("/", pageRoutes(deps));

  app.notFound((c) => {
    if (c.req.path.startsWith("/api/")) {
      return c.json({ error: "ERR_NOT_FOUND", message: "Route not found" }, 404);
    }
    return notFoundPage(c);
  });
  app.onError((error, c) => renderError(error, c, deps.storage));
  return app;
}
