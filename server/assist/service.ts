import type { TicketSummaryView } from "../../contract/assist_types.ts";
import type { AppDeps, AuthInfo } from "../context.ts";
import { AppError } from "../errors.ts";
import { assertPlanFlag } from "../auth/middleware.ts";
import { readableTicket } from "../tickets/service.ts";
import { viewerOf } from "../tickets/access.ts";
import { loadTicketView } from "../tickets/view_repository.ts";
import { type AssistAccount, type AssistFeature, assistGate } from "./account.ts";
import { type CallTarget, complete, failureText } from "./client.ts";
import { tellAdmins } from "./meter.ts";
import {
  canary,
  conversationJson,
  leaks,
  parseSuggestions,
  suggestionInstructions,
  summaryInstructions,
  userContent,
} from "./prompts.ts";
import * as repo from "./repository.ts";
import { ServiceError } from "../bots/service_call.ts";

/**
 * Issue 48: a ticket's summary (on transfer and reopen, by the job; on demand) and suggested
 * replies (on demand). Both read only the ticket's own messages (never notes or other tickets);
 * nothing is ever sent to the customer from here: a person picks, edits and sends.
 */
const SUMMARY_MESSAGES = 60;
const SUGGESTION_MESSAGES = 20;
const QUICK_ANSWERS = 20;

type Deps = Pick<AppDeps, "db" | "events" | "clock" | "outbound" | "config" | "secrets">;

/** The gate for a request: 403 ERR_ASSIST_DISABLED / ERR_ASSIST_PAUSED with the reason. */
async function requestGate(deps: Deps, auth: AuthInfo, feature: AssistFeature) {
  assertPlanFlag(auth.plan, "useAssist");
  const gate = await assistGate(deps, auth.companyId, feature);
  if ("account" in gate) return gate.account;
  if (gate.blocked === "cap") {
    await tellAdmins(deps, auth.companyId, "cap");
    throw new AppError(403, "ERR_ASSIST_PAUSED", "O limite mensal do assistente foi atingido");
  }
  throw new AppError(403, "ERR_ASSIST_DISABLED", "O assistente está desligado nesta empresa");
}

/** The service failed: 502 ERR_ASSIST_FAILED saying why; anything else is ours (500). */
function unavailable(error: unknown): unknown {
  if (!(error instanceof ServiceError)) return error;
  return new AppError(502, "ERR_ASSIST_FAILED", `O assistente falhou: ${failureText(error)}`);
}

/** Makes, stores and announces a summary (the job's and the request's one path). */
export async function summarise(
  deps: Deps,
  account: AssistAccount,
  companyId: number,
  ticketId: number,
  reason: string,
  userId: number | null,
): Promise<TicketSummaryView | undefined> {
  const messages = await repo.promptMessages(deps.db, companyId, ticketId, SUMMARY_MESSAGES);
  if (messages.length === 0) return undefined;
  const code = canary();
  const instructions = summaryInstructions(code);
  const target: CallTarget = {
    companyId,
    feature: "summary",
    entity: "ticket",
    entityId: ticketId,
    userId,
  };
  let text = await complete(deps, account, target, [
    { role: "system", content: instructions },
    { role: "user", content: userContent(conversationJson(messages)) },
  ], { maxTokens: 300 });
  if (leaks(text, instructions, code)) text = "";
  text = text.slice(0, 2000);
  if (!text) return undefined;
  const row = await repo.insertSummary(deps.db, {
    companyId,
    ticketId,
    reason,
    userId,
    summary: text,
    createdAt: deps.clock.now().toISOString(),
  });
  const summary: TicketSummaryView = {
    ticketId,
    summary: row.summary,
    reason: row.reason,
    createdAt: row.createdAt,
  };
  const ticket = await loadTicketView(deps.db, companyId, ticketId);
  if (ticket) deps.events.emit("ticket.summarized", { companyId, ticket, summary });
  return summary;
}

/** POST /api/tickets/:id/summary: a summary now (whoever may read the ticket). */
export async function ticketSummary(
  deps: AppDeps,
  auth: AuthInfo,
  ticketId: number,
): Promise<{ summary: string }> {
  const ticket = await readableTicket(deps.db, await viewerOf(deps.db, auth), { id: ticketId });
  const account = await requestGate(deps, auth, "summary");
  try {
    const made = await summarise(deps, account, auth.companyId, ticket.id, "asked", auth.userId);
    return { summary: made?.summary ?? "" };
  } catch (error) {
    throw unavailable(error);
  }
}

/** GET /api/tickets/:id/summary: the latest summary kept, or null. */
export async function lastTicketSummary(
  deps: AppDeps,
  auth: AuthInfo,
  ticketId: number,
): Promise<{ summary: TicketSummaryView | null }> {
  assertPlanFlag(auth.plan, "useAssist");
  const ticket = await readableTicket(deps.db, await viewerOf(deps.db, auth), { id: ticketId });
  const row = await repo.latestSummary(deps.db, auth.companyId, ticket.id);
  return {
    summary: row
      ? {
        ticketId: row.ticketId,
        summary: row.summary,
        reason: row.reason,
        createdAt: row.createdAt,
      }
      : null,
  };
}

/** POST /api/tickets/:id/suggestions: up to three replies for the attendant to pick and edit. */
export async function ticketSuggestions(
  deps: AppDeps,
  auth: AuthInfo,
  ticketId: number,
): Promise<{ suggestions: string[] }> {
  const ticket = await readableTicket(deps.db, await viewerOf(deps.db, auth), { id: ticketId });
  const account = await requestGate(deps, auth, "suggestions");
  const messages = await repo.promptMessages(
    deps.db,
    auth.companyId,
    ticket.id,
    SUGGESTION_MESSAGES,
  );
  if (messages.length === 0) return { suggestions: [] };
  const quick = await repo.promptQuickAnswers(deps.db, auth.companyId, auth.userId, QUICK_ANSWERS);
  const code = canary();
  const instructions = suggestionInstructions(code);
  try {
    const text = await complete(deps, account, {
      companyId: auth.companyId,
      feature: "suggestions",
      entity: "ticket",
      entityId: ticket.id,
      userId: auth.userId,
    }, [
      { role: "system", content: instructions },
      {
        role: "user",
        content: userContent(
          conversationJson(messages),
          quick.length ? JSON.stringify(quick.map((q) => q.message.slice(0, 500))) : undefined,
        ),
      },
    ], { maxTokens: 400, json: true });
    return {
      suggestions: parseSuggestions(text).filter((s) => !leaks(s, instructions, code)),
    };
  } catch (error) {
    throw unavailable(error);
  }
}
