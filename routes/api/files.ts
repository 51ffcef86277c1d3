import { Hono } from "hono";
import { z } from "zod";
import { allow, requireAuth } from "../../server/auth/middleware.ts";
import { type AppDeps, type AppEnv, authOf } from "../../server/context.ts";
import { requireCampaigns } from "../../server/campaigns/gate.ts";
import { AppError } from "../../server/errors.ts";
import {
  allFileLists,
  createFileList,
  deleteFileList,
  optionFile,
  pageFileLists,
  readFileList,
  updateFileList,
  uploadOptions,
} from "../../server/file_lists/service.ts";
import { limitedText } from "../../server/http/fields.ts";
import { idParam, pageNumber } from "../../server/http/params.ts";
import { validate } from "../../server/http/validate.ts";

// seeds/002 section 5 'File list': name at least 3 ('nome muito curto'), message required.
const name = limitedText({ min: 3, max: 100 }, {
  required: "Obrigatório",
  tooShort: "nome muito curto",
  tooLong: "Too Long!",
});
const message = limitedText({ min: 1, max: 4096 }, {
  required: "Obrigatório",
  tooShort: "Obrigatório",
  tooLong: "Too Long!",
});
const options = z.array(z.object({
  id: z.number().int().positive(),
  name: z.string().trim().min(1).max(100),
})).max(50);

/** /api/files (seeds/002 section 7 'File lists'). */
export function fileListRoutes(deps: AppDeps) {
  const app = new Hono<AppEnv>();
  app.use("*", requireAuth(deps), ...requireCampaigns(deps), allow("file-list:manage"));

  app.get(
    "/",
    validate("query", z.object({ searchParam: z.string().max(100).optional(), pageNumber })),
    async (c) => {
      const { searchParam, pageNumber } = c.req.valid("query");
      return c.json(await pageFileLists(deps, authOf(c).companyId, searchParam, pageNumber));
    },
  );

  app.get("/list", async (c) => c.json(await allFileLists(deps, authOf(c).companyId)));

  app.get("/:id{[0-9]+}", validate("param", idParam), async (c) => {
    return c.json(await readFileList(deps, authOf(c).companyId, c.req.valid("param").id));
  });

  app.get("/:id{[0-9]+}/options/:optionId{[0-9]+}", async (c) => {
    const { id, optionId } = c.req.param();
    return await optionFile(deps, authOf(c).companyId, Number(id), Number(optionId));
  });

  app.post("/", validate("json", z.object({ name, message })), async (c) => {
    const auth = authOf(c);
    return c.json(
      await createFileList(deps, auth.companyId, auth.userId, c.req.valid("json")),
      201,
    );
  });

  // The payload may carry userId (seeds/002 section 7): the owner is not changed by it.
  app.put(
    "/:id{[0-9]+}",
    validate("param", idParam),
    validate(
      "json",
      z.object({ name: name.optional(), message: message.optional(), options: options.optional() }),
    ),
    async (c) => {
      const { id } = c.req.valid("param");
      return c.json(await updateFileList(deps, authOf(c).companyId, id, c.req.valid("json")));
    },
  );

  app.delete("/:id{[0-9]+}", validate("param", idParam), async (c) => {
    await deleteFileList(deps, authOf(c).companyId, c.req.valid("param").id);
    return c.body(null, 204);
  });

  /**
   * Multipart: `files` (several), and per file a `name` (same order). The uploader's file names
   * and `typeArch`/`mediaType` fields are not trusted: the stored name is ours (a UUID) and the
   * type is the file's own, cleaned by the media store (server/media/store.ts).
   */
  app.post("/uploadList/:id{[0-9]+}", validate("param", idParam), async (c) => {
    const body = await c.req.parseBody({ all: true });
    const list = (
      value: unknown,
    ) => (value === undefined ? [] : Array.isArray(value) ? value : [value]);
    const files = list(body.files).filter((f): f is File => f instanceof File);
    if (files.length === 0 || files.length > 20) {
      throw new AppError(400, "ERR_VALIDATION", "Envie de 1 a 20 arquivos no campo files", {
        fields: { files: ["Obrigatório"] },
      });
    }
    const names = list(body.name).map(String);
    const id = c.req.valid("param").id;
    return c.json(
      await uploadOptions(
        deps,
        authOf(c).companyId,
        id,
        files.map((file, i) => ({ file, name: names[i] ?? file.name })),
      ),
    );
  });

  return app;
}
