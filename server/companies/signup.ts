import { hashPassword } from "../auth/passwords.ts";
import type { AppDeps } from "../context.ts";
import { AppError, notFound } from "../errors.ts";
import { seedCompanySettings } from "../seed.ts";
import { emailTaken } from "../users/repository.ts";
import { addDays } from "../billing/recurrence.ts";
import { isoDate } from "../clock.ts";
import * as repo from "./repository.ts";

/** seeds/001 section 9: a new company is due 3 days after signing up. */
export const SIGNUP_TRIAL_DAYS = 3;

export type SignupInput = {
  /** The first admin's name. */
  name: string;
  companyName: string;
  email: string;
  phone: string | null;
  password: string;
  planId: number;
};

/**
 * POST /api/companies/cadastro (public, when SIGNUP_ENABLED): the company (due in 3 days,
 * recurrence MENSAL, status on, campaigns on), its default settings and its first admin, in one
 * transaction: a refused signup leaves nothing behind. Duplicate company names are
 * ERR_DUPLICATED_NAME, an email already used by a user or a company ERR_DUPLICATED_EMAIL.
 */
export async function signup(deps: AppDeps, input: SignupInput): Promise<{ companyId: number }> {
  if (!deps.config.signupEnabled) {
    throw new AppError(403, "ERR_SIGNUP_DISABLED", "O cadastro público está desativado.");
  }
  const passwordHash = await hashPassword(input.password, deps.config.bcryptCost);
  const now = deps.clock.now();
  const stamp = now.toISOString();
  return await deps.db.transaction().execute(async (trx) => {
    if (!await repo.findPlan(trx, input.planId)) {
      throw notFound("ERR_NO_PLAN_FOUND", "Plano não encontrado");
    }
    if (await repo.companyTaken(trx, "name", input.companyName)) {
      throw new AppError(409, "ERR_DUPLICATED_NAME", "Já existe uma empresa com este nome.");
    }
    if (
      await emailTaken(trx, input.email) || await repo.companyTaken(trx, "email", input.email)
    ) {
      throw new AppError(409, "ERR_DUPLICATED_EMAIL", "Já existe um cadastro com este e-mail.");
    }
    const companyId = await repo.insertCompany(trx, {
      name: input.companyName,
      email: input.email,
      phone: input.phone,
      planId: input.planId,
      status: 1,
      dueDate: addDays(isoDate(now), SIGNUP_TRIAL_DAYS),
      recurrence: "MENSAL",
    }, stamp);
    await seedCompanySettings(trx, companyId, stamp);
    await repo.setCampaignsEnabled(trx, companyId, true, stamp);
    await repo.insertFirstAdmin(trx, companyId, {
      name: input.name,
      email: input.email,
      passwordHash,
    }, stamp);
    return { companyId };
  });
}
