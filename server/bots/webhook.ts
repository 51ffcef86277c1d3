import { z } from "zod";
import { companyHas } from "../tickets/repository.ts";
import type { BotChanges, BotDecision } from "./bot.ts";
import { HANDED_OVER, handOver, type IntegrationHandler } from "./integration.ts";
import { signatureHeaders } from "../crypto/signature.ts";
import { callService, parseJson, ServiceError } from "./service_call.ts";

/**
 * webhook and n8n integrations (README 'Automation'): each inbound message of a ticket with the
 * integration is POSTed as JSON to the integration's URL, signed with its secret like outgoing
 * webhooks (`X-Balcao-Timestamp`, `X-Balcao-Signature: sha256=<hex HMAC-SHA256 of
 * "<timestamp>.<raw body>">`, server/crypto/signature.ts). The answer (any 2xx) may
 * carry replies and one action; an empty answer means "nothing to say". What it answers is
 * untrusted: validated here, ids checked against the ticket's company.
 */
const MAX_REPLY = 4096;

export const webhookAnswer = z.object({
  replies: z.array(z.string().max(MAX_REPLY)).max(10).default([]),
  action: z.discriminatedUnion("type", [
    z.object({ type: z.literal("handover") }),
    z.object({ type: z.literal("close") }),
    z.object({
      type: z.literal("transfer"),
      queueId: z.number().int().positive().optional(),
      userId: z.number().int().positive().optional(),
    }),
  ]).optional(),
});

export const webhookTurn: IntegrationHandler = async ({ turn, integration, deps }) => {
  const { ticket, contact } = turn;
  const payload = {
    event: "message",
    integration: { id: integration.id, name: integration.name, type: integration.type },
    companyId: turn.companyId,
    connection: { id: turn.whatsappId },
    ticket: {
      id: ticket.id,
      isNew: ticket.isNew,
      status: ticket.status,
      queueId: ticket.queueId,
    },
    contact: { id: contact.id, name: contact.name, number: contact.number, email: contact.email },
    message: {
      body: turn.body,
      mediaType: turn.media?.type ?? null,
      timestamp: turn.now.toISOString(),
    },
  };
  const body = JSON.stringify(payload);
  const answer = await callService(integration.urlN8N, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "x-balcao-event": "message",
      "x-balcao-delivery": crypto.randomUUID(),
      ...await signatureHeaders(integration.secretPlain, turn.now, body),
    },
    body,
  }, {
    timeoutMs: deps.config.integrationTimeoutMs,
    via: deps.via,
  });
  const json = parseJson(answer.text);
  if (json === undefined) return { replies: [], changes: {} };
  const parsed = webhookAnswer.safeParse(json);
  if (!parsed.success) throw new ServiceError("webhook answer does not match the contract", false);
  const { replies, action } = parsed.data;
  const texts = replies.filter((r) => r.trim() !== "");
  return await applyAction(turn, texts, action);
};

async function applyAction(
  turn: Parameters<IntegrationHandler>[0]["turn"],
  replies: string[],
  action: z.infer<typeof webhookAnswer>["action"],
): Promise<BotDecision> {
  if (!action) return { replies, changes: {} };
  switch (action.type) {
    case "handover":
      return handOver(replies);
    case "close":
      return {
        replies,
        changes: { ...HANDED_OVER, status: "closed", closedAt: turn.now.toISOString() },
      };
    case "transfer": {
      const changes: BotChanges = { ...HANDED_OVER };
      // Only the ticket's company's queue or user; another id is ignored (still handed over).
      if (action.queueId !== undefined) {
        if (await companyHas(turn.db, "queues", turn.companyId, action.queueId)) {
          changes.queueId = action.queueId;
        }
      }
      if (action.userId !== undefined) {
        if (await companyHas(turn.db, "users", turn.companyId, action.userId)) {
          changes.userId = action.userId;
        }
      }
      return { replies, changes };
    }
  }
}
