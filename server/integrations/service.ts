import type { Database } from "../../db/client.ts";
import type { IntegrationType, QueueIntegration } from "../../db/schema.ts";
import { randomSecret } from "../auth/secrets.ts";
import { auditBy, changedFields } from "../audit/service.ts";
import type { AppDeps, AuthInfo } from "../context.ts";
import { seal, unsealOrEmpty } from "../crypto/sealed.ts";
import { badRequest, notFound } from "../errors.ts";
import { pageAnswer } from "../paging.ts";
import { parseServiceAccount, testDialogflow } from "../bots/dialogflow.ts";
import type { LiveIntegration } from "../bots/integration.ts";
import { owns } from "../references_repository.ts";
import * as repo from "./repository.ts";
import { type IntegrationView, integrationView } from "./view.ts";

export type IntegrationInput = {
  type: IntegrationType;
  name: string;
  projectName?: string;
  jsonContent?: string;
  language?: string;
  urlN8N?: string;
  typebotSlug?: string;
  typebotExpires?: number;
  typebotDelayMessage?: number;
  typebotKeywordFinish?: string;
  typebotKeywordRestart?: string;
  typebotRestartMessage?: string;
  typebotUnknownMessage?: string;
};

const notFoundError = () => notFound("ERR_NO_INTEGRATION_FOUND", "Integração não encontrada");

/** The whole row with its secrets readable (bots and the test action only; never answered). */
export type OpenIntegration = LiveIntegration;

export async function openIntegration(
  key: CryptoKey,
  row: QueueIntegration,
): Promise<OpenIntegration> {
  return {
    ...row,
    secretPlain: await unsealOrEmpty(key, row.secret),
    jsonPlain: await unsealOrEmpty(key, row.jsonContent),
  };
}

async function viewOf(deps: AppDeps, row: QueueIntegration, withSecret = false) {
  const open = {
    secretPlain: await unsealOrEmpty(deps.secrets.data, row.secret),
    jsonPlain: await unsealOrEmpty(deps.secrets.data, row.jsonContent),
  };
  let email = "";
  if (open.jsonPlain) {
    try {
      email = parseServiceAccount(open.jsonPlain).client_email;
    } catch {
      // A stored account is valid by construction; show nothing rather than fail the list.
    }
  }
  return integrationView(row, {
    serviceAccountEmail: email,
    withSecret: withSecret ? open.secretPlain : undefined,
  });
}

/**
 * Rules of seeds/002 section 5: for n8n, webhook and typebot the URL is required (and checked
 * against server-side request forgery) and projectName is the name; typebot needs its slug;
 * dialogflow needs a valid service account JSON (projectName defaults to its project_id).
 */
async function checked(
  deps: AppDeps,
  input: IntegrationInput,
  current?: OpenIntegration,
): Promise<Omit<QueueIntegration, "id" | "companyId" | "createdAt" | "updatedAt" | "secret">> {
  const fields: Record<string, string[]> = {};
  const url = (input.urlN8N ?? current?.urlN8N ?? "").trim();
  let projectName = (input.projectName ?? current?.projectName ?? "").trim();
  let jsonPlain = input.jsonContent === undefined || input.jsonContent === ""
    ? current?.jsonPlain ?? ""
    : input.jsonContent;
  const slug = (input.typebotSlug ?? current?.typebotSlug ?? "").trim();
  if (input.type === "dialogflow") {
    if (!jsonPlain.trim()) fields.jsonContent = ["Required"];
    else {
      const account = parseServiceAccount(jsonPlain);
      jsonPlain = JSON.stringify(account.raw);
      if (!projectName) projectName = account.project_id;
    }
  } else {
    jsonPlain = "";
    projectName = input.name;
    if (!url) fields.urlN8N = ["Required"];
    if (input.type === "typebot" && !slug) fields.typebotSlug = ["Required"];
  }
  if (Object.keys(fields).length > 0) {
    throw badRequest("ERR_VALIDATION", "Verifique os dados informados", fields);
  }
  if (input.type !== "dialogflow") {
    await deps.outbound.check(url);
  }
  const pick = <K extends keyof QueueIntegration>(key: K, fallback: QueueIntegration[K]) =>
    (input as Partial<QueueIntegration>)[key] ?? current?.[key] ?? fallback;
  return {
    type: input.type,
    name: input.name,
    projectName,
    jsonContent: await seal(deps.secrets.data, jsonPlain),
    language: pick("language", "pt-BR"),
    urlN8N: input.type === "dialogflow" ? "" : url,
    typebotSlug: input.type === "typebot" ? slug : "",
    typebotExpires: pick("typebotExpires", 1),
    typebotDelayMessage: pick("typebotDelayMessage", 1000),
    typebotKeywordFinish: pick("typebotKeywordFinish", ""),
    typebotKeywordRestart: pick("typebotKeywordRestart", ""),
    typebotRestartMessage: pick("typebotRestartMessage", ""),
    typebotUnknownMessage: pick("typebotUnknownMessage", ""),
  };
}

export async function listIntegrations(
  deps: AppDeps,
  companyId: number,
  searchParam: string | undefined,
  pageNumber: number,
) {
  const { rows, count, window } = await repo.pageIntegrations(
    deps.db,
    companyId,
    searchParam,
    pageNumber,
  );
  const views = await Promise.all(rows.map((row) => viewOf(deps, row)));
  return pageAnswer("queueIntegrations", views, count, window);
}

export async function showIntegration(deps: AppDeps, companyId: number, id: number) {
  const row = await repo.findIntegration(deps.db, companyId, id);
  if (!row) throw notFoundError();
  return await viewOf(deps, row, true);
}

/**
 * What the audit log keeps of an integration: its settings and its service account in plain
 * text (compared as such: sealing twice gives two ciphertexts), which the log masks
 * (server/audit/service.ts masked); never the signing secret.
 */
function auditedFields(row: QueueIntegration, jsonPlain: string) {
  const { id: _id, companyId: _c, createdAt: _at, updatedAt: _up, secret: _s, ...fields } = row;
  return { ...fields, jsonContent: jsonPlain };
}

export async function createIntegration(
  deps: AppDeps,
  auth: AuthInfo,
  input: IntegrationInput,
): Promise<IntegrationView> {
  const companyId = auth.companyId;
  const now = deps.clock.now().toISOString();
  const values = await checked(deps, input);
  // The key of the X-Balcao-Signature HMAC (README 'Queue integrations').
  const secret = await seal(deps.secrets.data, randomSecret(32));
  const row = await deps.db.transaction().execute(async (trx) => {
    const row = await repo.insertIntegration(trx, {
      ...values,
      companyId,
      secret,
      createdAt: now,
      updatedAt: now,
    });
    await auditBy(trx, auth, now, "integration.created", { entity: "integration", id: row.id }, {
      after: auditedFields(row, await unsealOrEmpty(deps.secrets.data, row.jsonContent)),
    });
    return row;
  });
  deps.events.emit("list.changed", {
    companyId,
    resource: "queueIntegration",
    change: { action: "create", record: await viewOf(deps, row) },
  });
  return await viewOf(deps, row, true);
}

export async function changeIntegration(
  deps: AppDeps,
  auth: AuthInfo,
  id: number,
  input: IntegrationInput,
): Promise<IntegrationView> {
  const companyId = auth.companyId;
  const current = await repo.findIntegration(deps.db, companyId, id);
  if (!current) throw notFoundError();
  const open = await openIntegration(deps.secrets.data, current);
  const values = await checked(deps, input, open);
  const now = deps.clock.now().toISOString();
  const row = await deps.db.transaction().execute(async (trx) => {
    const row = await repo.updateIntegration(trx, companyId, id, { ...values, updatedAt: now });
    if (!row) throw notFoundError();
    const diff = changedFields(
      auditedFields(current, open.jsonPlain),
      auditedFields(row, await unsealOrEmpty(deps.secrets.data, row.jsonContent)),
    );
    if (Object.keys(diff.after).length > 0) {
      await auditBy(trx, auth, now, "integration.updated", { entity: "integration", id }, diff);
    }
    return row;
  });
  deps.events.emit("list.changed", {
    companyId,
    resource: "queueIntegration",
    change: { action: "update", record: await viewOf(deps, row) },
  });
  return await viewOf(deps, row, true);
}

export async function removeIntegration(deps: AppDeps, auth: AuthInfo, id: number) {
  const companyId = auth.companyId;
  const now = deps.clock.now().toISOString();
  await deps.db.transaction().execute(async (trx) => {
    const was = await repo.findIntegration(trx, companyId, id);
    if (!was) throw notFoundError();
    await repo.deleteIntegration(trx, companyId, id);
    await auditBy(trx, auth, now, "integration.deleted", { entity: "integration", id }, {
      before: auditedFields(was, await unsealOrEmpty(deps.secrets.data, was.jsonContent)),
    });
  });
  deps.events.emit("list.changed", {
    companyId,
    resource: "queueIntegration",
    change: { action: "delete", id },
  });
}

/**
 * The integration and prompt a queue or a connection binds are the company's own (404
 * otherwise): checked inside the caller's transaction before the ids are stored.
 */
export async function requireBotRefs(
  db: Database,
  companyId: number,
  refs: { integrationId?: number | null; promptId?: number | null },
) {
  if (
    refs.integrationId != null && !await repo.findIntegration(db, companyId, refs.integrationId)
  ) {
    throw notFoundError();
  }
  if (refs.promptId != null && !await owns(db, companyId, "prompts", refs.promptId)) {
    throw notFound("ERR_NO_PROMPT_FOUND", "Prompt não encontrado");
  }
}

/**
 * POST /queueIntegration/testSession (seeds/002 section 7): whether a dialogflow service account
 * works. `id` reuses a stored account (the dialog never receives it back).
 */
export async function testSession(
  deps: AppDeps,
  companyId: number,
  input: { projectName?: string; jsonContent?: string; language?: string; id?: number },
) {
  let json = input.jsonContent ?? "";
  if (!json.trim() && input.id !== undefined) {
    const row = await repo.findIntegration(deps.db, companyId, input.id);
    if (!row) throw notFoundError();
    json = await unsealOrEmpty(deps.secrets.data, row.jsonContent);
  }
  const account = parseServiceAccount(json);
  return await testDialogflow(deps.config, deps.outbound, account, {
    projectName: input.projectName?.trim() || account.project_id,
    language: input.language ?? "pt-BR",
  });
}
