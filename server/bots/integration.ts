import type { QueueIntegration } from "../../db/schema.ts";
import type { Config } from "../config.ts";
import { unseal } from "../crypto/sealed.ts";
import type { Fetcher, Outbound } from "../http/outbound_fetch.ts";
import { findIntegration } from "../integrations/repository.ts";
import { log } from "../log.ts";
import type { Bot, BotChanges, BotDecision, BotTurn } from "./bot.ts";
import { HAND_OVER } from "./registry.ts";
import { Circuit, ServiceError } from "./service_call.ts";

/**
 * The "integration" bot (issue 15): a ticket with `useIntegration` and an `integrationId` is
 * answered by that queue integration. One handler per type (webhook.ts for webhook and n8n,
 * typebot.ts, dialogflow.ts); this file loads the integration (of the ticket's company only),
 * opens its secrets, watches the circuit and hands the ticket to people when the integration is
 * gone, the service is down, or it answers garbage.
 */
export type IntegrationBotDeps = {
  config: Config;
  dataKey: CryptoKey;
  /** Every call to the integration's (a user's) URLs goes through it. */
  outbound: Outbound;
  circuit?: Circuit;
};

export type LiveIntegration = QueueIntegration & { secretPlain: string; jsonPlain: string };

export type IntegrationTurn = {
  turn: BotTurn;
  integration: LiveIntegration;
  deps: IntegrationBotDeps & { circuit: Circuit; via: Fetcher };
};

export type IntegrationHandler = (turn: IntegrationTurn) => Promise<BotDecision>;

/** Hands the ticket to people (and forgets the outside conversation). */
export const HANDED_OVER: BotChanges = HAND_OVER;

export function handOver(replies: string[] = []): BotDecision {
  return { replies, changes: HANDED_OVER };
}

export function integrationBot(
  deps: IntegrationBotDeps,
  handlers: Record<QueueIntegration["type"], IntegrationHandler>,
): Bot {
  const circuit = deps.circuit ?? new Circuit();
  return {
    kind: "integration",
    async decide(turn: BotTurn): Promise<BotDecision> {
      const id = turn.ticket.integrationId;
      if (id === null) return handOver();
      const row = await findIntegration(turn.db, turn.companyId, id);
      if (!row) return handOver();
      if (!turn.answer) return { replies: [], changes: {} };
      const key = `integration:${row.id}`;
      if (circuit.isOpen(key)) {
        log.info("bots: integration circuit open; the ticket goes to people", {
          companyId: turn.companyId,
          integrationId: row.id,
        });
        return handOver();
      }
      const integration: LiveIntegration = {
        ...row,
        secretPlain: await unseal(deps.dataKey, row.secret),
        jsonPlain: await unseal(deps.dataKey, row.jsonContent),
      };
      try {
        const decision = await handlers[row.type]({
          turn,
          integration,
          deps: { ...deps, circuit, via: (url, init) => deps.outbound.fetch(url, init) },
        });
        circuit.success(key);
        return decision;
      } catch (error) {
        if (error instanceof ServiceError) {
          if (error.retriable) circuit.failure(key);
          log.warn("bots: integration failed; the ticket goes to people", {
            companyId: turn.companyId,
            integrationId: row.id,
            type: row.type,
            error: error.message,
          });
          return handOver();
        }
        throw error;
      }
    },
  };
}
