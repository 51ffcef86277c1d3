import type { Database } from "../../db/client.ts";
import { capabilitiesOf } from "../../contract/channels.ts";
import type { AppDeps } from "../context.ts";
import { AppError, badRequest } from "../errors.ts";
import { approvedTemplate } from "../whatsapp/providers/cloud_api/templates.ts";
import { findTemplate } from "../whatsapp/providers/cloud_api/repository.ts";
import type { SendTemplate } from "../../contract/channels.ts";
import { channelOf } from "./window_repository.ts";

/**
 * Sends prepared ahead of time (campaigns, schedules, the external API) on a connection with the
 * 24-hour window (capability `window24h`): their recipients mostly have not written in the last
 * day, so free text would be refused by the network at dispatch, long after anyone could fix it.
 * They are checked when SAVED instead: such a connection needs an approved template (422
 * ERR_WHATSAPP_TEMPLATE_REQUIRED); a template on a connection without templates, or one not
 * approved, or with the wrong number of variables, is refused too.
 */
export type SaveRule = {
  /** The text, confirmation or files a free-form send would carry (refused with the window). */
  freeForm: boolean;
  template: SendTemplate | null | undefined;
};

export function templateRequired(): AppError {
  return new AppError(
    422,
    "ERR_WHATSAPP_TEMPLATE_REQUIRED",
    "Esta conexão só envia modelos aprovados a quem não escreveu nas últimas 24 horas: escolha um modelo.",
    { fields: { template: ["Obrigatório"] } },
  );
}

/** Whether the connection has the window (sends prepared ahead must be templates). */
export async function needsTemplate(db: Database, companyId: number, whatsappId: number) {
  const kind = await channelOf(db, companyId, whatsappId);
  return kind !== undefined && capabilitiesOf(kind).window24h;
}

export async function assertSendable(
  deps: AppDeps,
  companyId: number,
  whatsappId: number | null,
  rule: SaveRule,
  db: Database = deps.db,
) {
  if (whatsappId === null) return;
  const kind = await channelOf(db, companyId, whatsappId);
  if (!kind) return;
  const caps = capabilitiesOf(kind);
  if (caps.window24h && (!rule.template || rule.freeForm)) throw templateRequired();
  if (!rule.template) return;
  if (!caps.templates) {
    throw badRequest("ERR_WHATSAPP_NO_TEMPLATES", "Esta conexão não envia modelos");
  }
  const found = await approvedTemplate(
    { ...deps, db },
    companyId,
    whatsappId,
    rule.template.name,
    rule.template.language,
  );
  if (found.parameters !== rule.template.parameters.length) {
    throw badRequest(
      "ERR_WHATSAPP_TEMPLATE_PARAMS",
      "O número de variáveis não corresponde ao modelo",
      { template: ["Invalid"] },
    );
  }
}

/** The template's body with its variables filled: our copy of what the contact reads. */
export function filledTemplateText(body: string, parameters: string[], name: string): string {
  const text = body.replace(/\{\{\s*(\d+)\s*\}\}/g, (_, n) => parameters[Number(n) - 1] ?? "");
  return text.trim() || name;
}

/**
 * The text a template send stores as our copy of it (the synced body, variables filled); the
 * template's name when it is no longer synced (the network still has it).
 */
export async function templateText(
  db: Database,
  companyId: number,
  whatsappId: number,
  template: SendTemplate,
): Promise<string> {
  const found = await findTemplate(db, companyId, whatsappId, template.name, template.language);
  return filledTemplateText(found?.body ?? "", template.parameters, template.name);
}
