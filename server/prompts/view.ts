import type { Prompt } from "../../db/schema.ts";
import { mask } from "../crypto/sealed.ts";
import type { PromptView } from "../../contract/integrations.ts";

/**
 * A prompt as answered (seeds/002 section 3 'Prompt'): the API and voice keys only masked (the
 * last characters at most), never in full, in answers and in live events alike.
 */
export function promptView(
  row: Prompt,
  plain: { apiKey: string; voiceKey: string },
  queueName: string | null,
): PromptView {
  return {
    id: row.id,
    name: row.name,
    apiKey: mask(plain.apiKey),
    prompt: row.prompt,
    voice: row.voice,
    voiceKey: mask(plain.voiceKey),
    voiceRegion: row.voiceRegion,
    temperature: row.temperature,
    maxTokens: row.maxTokens,
    maxMessages: row.maxMessages,
    queueId: row.queueId,
    queue: queueName === null ? null : { id: row.queueId, name: queueName },
    companyId: row.companyId,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}
