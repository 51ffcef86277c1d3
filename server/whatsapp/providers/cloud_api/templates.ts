import type { AppDeps } from "../../../context.ts";
import { badRequest } from "../../../errors.ts";
import { log } from "../../../log.ts";
import { graphFailure, graphOf, requireCloud } from "./service.ts";
import * as repo from "./repository.ts";

/**
 * A Cloud API connection's message templates (issue 45 item 6): synced from
 * GET /{waba-id}/message_templates ('Sincronizar' and the cloud_templates job), listed, and the
 * approved ones checked before a send.
 */

type GraphTemplate = {
  name?: string;
  language?: string;
  status?: string;
  category?: string;
  components?: { type?: string; text?: string }[];
};

/** How many body variables ({{1}}, {{2}} …) a template's body has. */
function bodyOf(t: GraphTemplate): { text: string; parameters: number } {
  const text = t.components?.find((c) => c.type?.toUpperCase() === "BODY")?.text ?? "";
  const numbers = [...text.matchAll(/\{\{\s*(\d+)\s*\}\}/g)].map((m) => Number(m[1]));
  return { text, parameters: numbers.length ? Math.max(...numbers) : 0 };
}

/** 'Sincronizar': every page of GET /{waba-id}/message_templates replaces the stored list. */
export async function syncTemplates(deps: AppDeps, companyId: number, whatsappId: number) {
  const row = await requireCloud(deps, companyId, whatsappId);
  const graph = await graphOf(deps, row);
  const found: repo.TemplateRow[] = [];
  try {
    let page = await graph.get<{ data?: GraphTemplate[]; paging?: { next?: string } }>(
      `${row.businessAccountId}/message_templates`,
      { limit: "100" },
    );
    for (let pages = 0; pages < 100; pages++) {
      for (const t of page.data ?? []) {
        if (!t.name || !t.language) continue;
        const body = bodyOf(t);
        found.push({
          name: t.name,
          language: t.language,
          status: (t.status ?? "UNKNOWN").toLowerCase(),
          category: (t.category ?? "").toLowerCase(),
          parameters: body.parameters,
          body: body.text,
        });
      }
      if (!page.paging?.next) break;
      page = await graph.get(page.paging.next);
    }
  } catch (error) {
    throw graphFailure(error);
  }
  await repo.replaceTemplates(
    deps.db,
    companyId,
    whatsappId,
    found,
    deps.clock.now().toISOString(),
  );
  return await templatesOf(deps, companyId, whatsappId);
}

export async function templatesOf(deps: AppDeps, companyId: number, whatsappId: number) {
  await requireCloud(deps, companyId, whatsappId);
  const rows = await repo.listTemplates(deps.db, companyId, whatsappId);
  return { templates: rows };
}

/** The approved templates of a connection, as the composer offers them. */
export async function approvedTemplates(deps: AppDeps, companyId: number, whatsappId: number) {
  const rows = await repo.listTemplates(deps.db, companyId, whatsappId);
  return rows.filter((t) => t.status === "approved").map((t) => ({
    name: t.name,
    language: t.language,
    category: t.category,
    parameters: t.parameters,
    body: t.body,
  }));
}

/** The approved template a send names, or ERR_WHATSAPP_TEMPLATE_NOT_FOUND. */
export async function approvedTemplate(
  deps: AppDeps,
  companyId: number,
  whatsappId: number,
  name: string,
  language: string,
) {
  const t = await repo.findTemplate(deps.db, companyId, whatsappId, name, language);
  if (!t || t.status !== "approved") {
    throw badRequest("ERR_WHATSAPP_TEMPLATE_NOT_FOUND", "Modelo não encontrado ou não aprovado");
  }
  return t;
}

/** How often the cloud_templates job refreshes a connection's templates (Meta approves in hours). */
export const TEMPLATE_SYNC_MS = 60 * 60 * 1000;

/**
 * The cloud_templates job: each Cloud API connection's templates synced once per
 * TEMPLATE_SYNC_MS (state: whatsapp_cloud.templatesSyncedAt). A connection that fails (token,
 * network) is logged and left for the next tick; the others go on.
 */
export async function syncDueTemplates(deps: AppDeps) {
  const before = new Date(deps.clock.now().getTime() - TEMPLATE_SYNC_MS).toISOString();
  for (const c of await repo.connectionsDueForTemplates(deps.db, before)) {
    await syncTemplates(deps, c.companyId, c.whatsappId).catch((error) =>
      log.warn("cloud api: templates not synced", { whatsappId: c.whatsappId, error })
    );
  }
}
