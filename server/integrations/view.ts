import type { QueueIntegration } from "../../db/schema.ts";
import type { IntegrationView } from "../../contract/integrations.ts";

/**
 * A queue integration as answered (seeds/002 section 3 'Queue integration'). The service
 * account (`jsonContent`, it holds a private key) never leaves the server: the answer says only
 * whether one is stored and whose it is. The webhook signing `secret` is shown to admins who
 * open the integration (they configure their receiver with it), never in live events.
 */
export type { IntegrationView };

export function integrationView(
  row: QueueIntegration,
  options: { serviceAccountEmail?: string; withSecret?: string } = {},
): IntegrationView {
  const view: IntegrationView = {
    id: row.id,
    type: row.type,
    name: row.name,
    projectName: row.projectName,
    jsonContent: "",
    hasJsonContent: row.jsonContent !== "",
    serviceAccountEmail: options.serviceAccountEmail ?? "",
    language: row.language,
    urlN8N: row.urlN8N,
    typebotSlug: row.typebotSlug,
    typebotExpires: row.typebotExpires,
    typebotDelayMessage: row.typebotDelayMessage,
    typebotKeywordFinish: row.typebotKeywordFinish,
    typebotKeywordRestart: row.typebotKeywordRestart,
    typebotRestartMessage: row.typebotRestartMessage,
    typebotUnknownMessage: row.typebotUnknownMessage,
    companyId: row.companyId,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
  if (options.withSecret !== undefined) view.secret = options.withSecret;
  return view;
}
