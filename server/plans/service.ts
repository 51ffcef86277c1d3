import type { Plan } from "../../db/schema.ts";
import type { PlanView } from "../../contract/platform_types.ts";
import { planFlags } from "../auth/service.ts";
import { auditBy, changedFields } from "../audit/service.ts";
import type { AppDeps, AuthInfo } from "../context.ts";
import { AppError, notFound } from "../errors.ts";
import { setCompanyFlags } from "../realtime/members.ts";
import { enabledFlags } from "./features.ts";
import { type PageAnswer, pageAnswer } from "../paging.ts";
import * as repo from "./repository.ts";

/** seeds/001 section 5: the save-failure text of the Planos tab (a name already used). */
export const PLAN_SAVE_FAILED =
  "Não foi possível realizar a operação. Verifique se já existe uma plano com o mesmo nome ou se os campos foram preenchidos corretamente.";

function duplicated() {
  return new AppError(409, "ERR_DUPLICATED_NAME", PLAN_SAVE_FAILED);
}

function missing() {
  return notFound("ERR_NO_PLAN_FOUND", "Plano não encontrado");
}

/**
 * A company's plan changed (it moved to another, or its plan was edited): its open sockets take
 * the new flags, and its pages hear `company-<id>-plan` and read the session again, so the menu
 * and page guards follow without a new login. HTTP needs nothing: every request reads the plan.
 */
export function announcePlan(deps: AppDeps, companyId: number, plan: Plan | null) {
  setCompanyFlags(deps.hub, companyId, enabledFlags(plan));
  deps.events.emit("plan.changed", { companyId, plan: planFlags(plan) });
}

export async function listPlanViews(deps: AppDeps): Promise<PlanView[]> {
  return (await repo.listPlans(deps.db)).map(repo.planView);
}

/** GET /api/plans (super): a page by name, `searchParam` on the name (the Planos tab). */
export async function pagePlans(
  deps: AppDeps,
  searchParam: string | undefined,
  pageNumber: number,
): Promise<PageAnswer<"plans", PlanView>> {
  const { rows, count, window } = await repo.pagePlans(deps.db, searchParam, pageNumber);
  return pageAnswer("plans", rows.map(repo.planView), count, window);
}

export async function getPlan(deps: AppDeps, id: number): Promise<PlanView> {
  const plan = await repo.findPlan(deps.db, id);
  if (!plan) throw missing();
  return repo.planView(plan);
}

/*
 * Plans are the platform's: their audit rows stay with the company of the super user who changed
 * them (the platform's), where /audit shows them.
 */
export async function createPlan(
  deps: AppDeps,
  auth: AuthInfo,
  fields: repo.PlanFields,
): Promise<PlanView> {
  const now = deps.clock.now().toISOString();
  const plan = await deps.db.transaction().execute(async (trx) => {
    if (await repo.planNameTaken(trx, fields.name)) throw duplicated();
    const plan = await repo.insertPlan(trx, fields, now);
    await auditBy(trx, auth, now, "plan.created", { entity: "plan", id: plan.id }, {
      after: repo.planView(plan),
    });
    return plan;
  });
  return repo.planView(plan);
}

export async function changePlan(
  deps: AppDeps,
  auth: AuthInfo,
  id: number,
  fields: Partial<repo.PlanFields>,
): Promise<PlanView> {
  const now = deps.clock.now().toISOString();
  const { plan, companies } = await deps.db.transaction().execute(async (trx) => {
    const was = await repo.findPlan(trx, id);
    if (!was) throw missing();
    if (fields.name !== undefined && await repo.planNameTaken(trx, fields.name, id)) {
      throw duplicated();
    }
    const plan = (await repo.updatePlan(trx, id, fields, now))!;
    const diff = changedFields(repo.planView(was), repo.planView(plan));
    if (Object.keys(diff.after).length > 0) {
      await auditBy(trx, auth, now, "plan.updated", { entity: "plan", id }, diff);
    }
    return { plan, companies: await repo.companiesOnPlan(trx, id) };
  });
  for (const companyId of companies) announcePlan(deps, companyId, plan);
  return repo.planView(plan);
}

/** Refused while any company is on the plan (409 ERR_PLAN_IN_USE): nothing is changed. */
export async function removePlan(deps: AppDeps, auth: AuthInfo, id: number) {
  const now = deps.clock.now().toISOString();
  await deps.db.transaction().execute(async (trx) => {
    const was = await repo.findPlan(trx, id);
    if (!was) throw missing();
    const users = await repo.companiesOnPlan(trx, id);
    if (users.length > 0) {
      throw new AppError(
        409,
        "ERR_PLAN_IN_USE",
        `Este plano está em uso por ${users.length} empresa(s) e não pode ser excluído.`,
      );
    }
    await repo.deletePlan(trx, id);
    await auditBy(trx, auth, now, "plan.deleted", { entity: "plan", id }, {
      before: repo.planView(was),
    });
  });
}
