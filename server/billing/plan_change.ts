import type { InvoiceView, PlanChangeQuote } from "../../contract/billing_types.ts";
import { auditBy } from "../audit/service.ts";
import { isoDate } from "../clock.ts";
import type { AppDeps, AuthInfo } from "../context.ts";
import { AppError, badRequest, notFound } from "../errors.ts";
import { assertAllowed } from "../auth/policy.ts";
import { planFlags } from "../auth/service.ts";
import { findPlan, updateCompanyRow } from "../companies/repository.ts";
import { countQueues } from "../queues/repository.ts";
import { countUsers } from "../users/repository.ts";
import { countWhatsapps } from "../whatsapp/repository.ts";
import type { LimitKind } from "../plans/features.ts";
import { addMonths, recurrenceMonths } from "./recurrence.ts";
import * as repo from "./repository.ts";
import { reaisOf } from "../../contract/money.ts";

const DAY_MS = 86_400_000;

function days(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS);
}

/**
 * The difference a change of plan puts on the next invoice (README 'Billing'): the current period
 * runs from one recurrence before the due date to the due date and is paid at the old price; the
 * days left of it (today to the due date) are charged (a dearer plan) or credited (a cheaper one)
 * at the difference of the two prices: (new - old) x months x daysLeft / daysInPeriod, to the
 * cent. Past the due date nothing is left: 0.
 */
export function planChangeAdjustment(input: {
  oldValue: number;
  newValue: number;
  recurrence: string | null;
  dueDate: string;
  today: string;
}): number {
  const months = recurrenceMonths(input.recurrence);
  const periodDays = days(addMonths(input.dueDate, -months), input.dueDate);
  const left = Math.max(0, Math.min(periodDays, days(input.today, input.dueDate)));
  if (periodDays <= 0 || left === 0) return 0;
  const amount = (input.newValue - input.oldValue) * months * left / periodDays;
  return Math.round(amount * 100) / 100;
}

const NAMES: Record<LimitKind, string> = {
  users: "usuários",
  connections: "conexões",
  queues: "filas",
};

function money(value: number): string {
  return `R$ ${Math.abs(value).toFixed(2).replace(".", ",")}`;
}

/** What changing to a plan of `value` today puts on the next invoice (0 without a due date). */
function adjustmentOf(auth: AuthInfo, value: number, now: Date): number {
  const dueDate = auth.company.dueDate?.slice(0, 10) ?? null;
  return dueDate
    ? planChangeAdjustment({
      oldValue: reaisOf(auth.plan?.valueCents ?? 0),
      newValue: value,
      recurrence: auth.company.recurrence,
      dueDate,
      today: isoDate(now),
    })
    : 0;
}

/**
 * The next invoice's amount after a change: the new plan's price for the period, what an earlier
 * change of this period already put on the invoice (`existing` beyond the old plan's price), and
 * this change's adjustment; never below 0 (a larger credit is not carried).
 */
function nextInvoiceValue(input: {
  newValue: number;
  oldValue: number;
  months: number;
  existing: number | null;
  adjustment: number;
}): number {
  const base = Math.round(input.newValue * input.months * 100) / 100;
  const oldBase = Math.round(input.oldValue * input.months * 100) / 100;
  const carried = input.existing === null ? 0 : input.existing - oldBase;
  return Math.max(0, Math.round((base + carried + input.adjustment) * 100) / 100);
}

/**
 * GET /api/subscription/plan/:id/quote (issue 50 item 12): what the confirmation says before the
 * change: the plan's price per period, the adjustment the next invoice would carry today, and
 * that invoice's amount then (the same sum `changePlan` writes).
 */
export async function planChangeQuote(
  deps: AppDeps,
  auth: AuthInfo,
  planId: number,
): Promise<PlanChangeQuote> {
  assertAllowed(auth, "plan:change");
  const plan = await findPlan(deps.db, planId);
  if (!plan) throw notFound("ERR_NO_PLAN_FOUND", "Plano não encontrado");
  const now = deps.clock.now();
  const newValue = reaisOf(plan.valueCents);
  const adjustment = adjustmentOf(auth, newValue, now);
  const dueDate = auth.company.dueDate?.slice(0, 10) ?? null;
  let invoice: PlanChangeQuote["invoice"] = null;
  if (dueDate && plan.valueCents > 0) {
    const existing = await repo.findPeriodInvoice(deps.db, auth.companyId, dueDate);
    if (!existing || existing.status === "open") {
      invoice = {
        dueDate,
        value: nextInvoiceValue({
          newValue,
          oldValue: reaisOf(auth.plan?.valueCents ?? 0),
          months: recurrenceMonths(auth.company.recurrence),
          existing: existing?.value ?? null,
          adjustment,
        }),
        late: dueDate < isoDate(now),
      };
    }
  }
  return { plan: { id: plan.id, name: plan.name, value: newValue }, adjustment, invoice };
}

export type PlanChange = {
  plan: { id: number; name: string; value: number };
  /** What the change added (> 0) or credited (< 0) on the next invoice. */
  adjustment: number;
  /** The next invoice, at the new price plus the adjustment (null: no due date or a free plan). */
  invoice: InvoiceView | null;
};

/**
 * PUT /api/subscription/plan (issue 29 item 3): the company's admin chooses another plan. Refused
 * when the platform does not allow it (PLAN_CHANGE_ENABLED=false), and when the company uses more
 * than the plan allows (users, connections, queues: the usage is named). In one transaction the
 * company moves to the plan (its limits and flags apply from the next request) and the next
 * invoice (the one of the current due date, made now if it is not yet) is priced at the new plan
 * plus the adjustment above (and what an earlier change of the period put on it); a credit larger
 * than that invoice makes it 0 (the rest is not carried). A charge already made for the old amount is dropped with it.
 */
export async function changePlan(
  deps: AppDeps,
  auth: AuthInfo,
  planId: number,
): Promise<PlanChange> {
  assertAllowed(auth, "plan:change");
  if (!deps.config.planChangeEnabled) {
    throw new AppError(
      403,
      "ERR_PLAN_CHANGE_DISABLED",
      "A troca de plano pelo administrador está desativada.",
    );
  }
  const companyId = auth.companyId;
  const plan = await findPlan(deps.db, planId);
  if (!plan) throw notFound("ERR_NO_PLAN_FOUND", "Plano não encontrado");
  if (plan.id === auth.company.planId) {
    throw badRequest("ERR_VALIDATION", "Este já é o plano da empresa");
  }
  const usage: Record<LimitKind, number> = {
    users: await countUsers(deps.db, companyId),
    connections: await countWhatsapps(deps.db, companyId),
    queues: await countQueues(deps.db, companyId),
  };
  const over = (Object.keys(usage) as LimitKind[])
    .filter((kind) => plan[kind] > 0 && usage[kind] > plan[kind])
    .map((kind) => `${usage[kind]} ${NAMES[kind]} (o plano permite ${plan[kind]})`);
  if (over.length) {
    throw new AppError(
      400,
      "ERR_PLAN_LIMIT",
      `O plano ${plan.name} não comporta o uso atual da empresa: ${over.join(", ")}`,
    );
  }
  const company = auth.company;
  const now = deps.clock.now();
  const stamp = now.toISOString();
  const dueDate = company.dueDate?.slice(0, 10) ?? null;
  const adjustment = adjustmentOf(auth, reaisOf(plan.valueCents), now);
  const months = recurrenceMonths(company.recurrence);
  const result = await deps.db.transaction().execute(async (trx) => {
    await updateCompanyRow(trx, companyId, { planId: plan.id, updatedAt: stamp });
    await auditBy(trx, auth, stamp, "subscription.planChanged", {
      entity: "company",
      id: companyId,
    }, { before: { planId: company.planId }, after: { planId: plan.id, adjustment } });
    if (!dueDate || plan.valueCents <= 0) return { invoice: null, created: false };
    const detail = `${plan.name} - ${company.recurrence ?? "MENSAL"}`;
    const base = Math.round(reaisOf(plan.valueCents) * months * 100) / 100;
    const period = await repo.ensurePeriodInvoice(trx, {
      companyId,
      detail,
      value: base,
      dueDate,
      now: stamp,
    });
    if (period.invoice.status !== "open") return { invoice: null, created: false };
    const note = adjustment === 0
      ? ""
      : ` (troca de plano: ${adjustment > 0 ? "+" : "-"}${money(adjustment)})`;
    // What an existing invoice already carried beyond the old plan's price (an earlier change of
    // this period) stays on it.
    const invoice = await repo.updateOpenInvoice(trx, companyId, period.invoice.id, {
      detail: `${detail}${note}`,
      value: nextInvoiceValue({
        newValue: reaisOf(plan.valueCents),
        oldValue: reaisOf(auth.plan?.valueCents ?? 0),
        months,
        existing: period.created ? null : period.invoice.value,
        adjustment,
      }),
    }, stamp);
    return { invoice: invoice ?? null, created: period.created };
  });
  deps.events.emit("plan.changed", { companyId, plan: planFlags(plan) });
  if (result.invoice) {
    deps.events.emit("list.changed", {
      companyId,
      resource: "invoice",
      change: {
        action: result.created ? "create" : "update",
        record: repo.invoiceView(result.invoice),
      },
    });
  }
  return {
    plan: { id: plan.id, name: plan.name, value: reaisOf(plan.valueCents) },
    adjustment,
    invoice: result.invoice ? repo.invoiceView(result.invoice) : null,
  };
}
