import type { Company } from "../../db/schema.ts";
import type { CompanyView, Recurrence } from "../../contract/platform_types.ts";
import { type PlanFlags, planFlags } from "../auth/service.ts";
import type { AppDeps, AuthInfo } from "../context.ts";
import { AppError, notFound } from "../errors.ts";
import { type PageAnswer, pageAnswer } from "../paging.ts";
import { auditBy, changedFields } from "../audit/service.ts";
import { announcePlan } from "../plans/service.ts";
import { countedHours, type WorkingHoursEntry } from "../queues/hours.ts";
import { disconnectCompany } from "../realtime/members.ts";
import { hashPassword } from "../auth/passwords.ts";
import { seedCompanySettings } from "../seed.ts";
import { emailTaken } from "../users/repository.ts";
import * as repo from "./repository.ts";
import { stopCompanyConnections, sweepCompanyFiles } from "./teardown.ts";

export type { CompanyView };

/** seeds/001 section 2 'Companies admin': the save-failure text. */
export const COMPANY_SAVE_FAILED =
  "Não foi possível realizar a operação. Verifique se já existe uma empresa com o mesmo nome ou se os campos foram preenchidos corretamente.";

/** The company's hours as routing should use them: saved ones, else the defaults. */
export function companyWorkingHours(company: Pick<Company, "schedules">): WorkingHoursEntry[] {
  return countedHours("company", null, company.schedules);
}

function view(c: repo.CompanyRow): CompanyView {
  return {
    id: c.id,
    name: c.name,
    email: c.email,
    phone: c.phone,
    planId: c.planId,
    plan: c.planId !== null && c.planName !== null ? { id: c.planId, name: c.planName } : null,
    status: c.status === 1,
    campaignsEnabled: c.campaignsEnabled === "true",
    dueDate: c.dueDate,
    recurrence: c.recurrence,
    schedules: companyWorkingHours(c),
    billingName: c.billingName,
    addressZipCode: c.addressZipCode,
    addressStreet: c.addressStreet,
    addressState: c.addressState,
    addressCity: c.addressCity,
    addressDistrict: c.addressDistrict,
    createdAt: c.createdAt,
    updatedAt: c.updatedAt,
  };
}

/** What the audit log keeps of a company (issue 30): the fields a super user edits. */
function auditedFields(c: repo.CompanyRow) {
  return {
    name: c.name,
    email: c.email,
    phone: c.phone,
    planId: c.planId,
    status: c.status === 1,
    campaignsEnabled: c.campaignsEnabled === "true",
    dueDate: c.dueDate,
    recurrence: c.recurrence,
  };
}

/** The platform's own company (a super user's) is never deleted nor switched off. */
function protectedCompany() {
  return new AppError(
    403,
    "ERR_COMPANY_PROTECTED",
    "A empresa da plataforma não pode ser excluída nem desativada.",
  );
}

function missing() {
  return notFound("ERR_NO_COMPANY_FOUND", "Empresa não encontrada");
}

/** Users read their own company; super users any. Anything else looks missing. */
async function visibleCompany(
  deps: AppDeps,
  auth: AuthInfo,
  id: number,
): Promise<repo.CompanyRow> {
  const company = id === auth.companyId || auth.isSuper
    ? await repo.findCompanyRow(deps.db, id)
    : undefined;
  if (!company) throw missing();
  return company;
}

export async function getCompany(deps: AppDeps, auth: AuthInfo, id: number): Promise<CompanyView> {
  return view(await visibleCompany(deps, auth, id));
}

/** GET /api/companies/listPlan/:companyId: the company's plan with its feature flags. */
export async function companyPlan(
  deps: AppDeps,
  auth: AuthInfo,
  companyId: number,
): Promise<PlanFlags> {
  const company = await visibleCompany(deps, auth, companyId);
  const plan = company.planId === null ? undefined : await repo.findPlan(deps.db, company.planId);
  if (!plan) throw notFound("ERR_NO_PLAN_FOUND", "Plano não encontrado");
  return planFlags(plan)!;
}

/** PUT /api/companies/:id/schedules: the company's weekly working hours (admins). */
export async function updateCompanySchedules(
  deps: AppDeps,
  auth: AuthInfo,
  id: number,
  schedules: WorkingHoursEntry[],
): Promise<CompanyView> {
  const was = await visibleCompany(deps, auth, id);
  const now = deps.clock.now().toISOString();
  const hoursChanged = await deps.db.transaction().execute(async (trx) => {
    const row = await repo.setCompanySchedules(trx, id, JSON.stringify(schedules), now);
    if (!row) throw missing();
    const diff = changedFields(
      { schedules: companyWorkingHours(was) },
      { schedules: companyWorkingHours(row) },
    );
    if (Object.keys(diff.after).length > 0) {
      await auditBy(
        trx,
        auth,
        now,
        "company.updated",
        { entity: "company", id, companyId: id },
        diff,
      );
    }
    return Object.keys(diff.after).length > 0;
  });
  const company = view((await repo.findCompanyRow(deps.db, id))!);
  // Told after commit: with the company's hours counting ('Empresa'), distribution dates the
  // waiting tickets again and gives out what an opening lets through (issue 50 item 1).
  if (hoursChanged) deps.events.emit("company.updated", { company, hoursChanged });
  return company;
}

/** GET /api/companies (super): a page by name, `searchParam` on name and email. */
export async function pageCompanies(
  deps: AppDeps,
  searchParam: string | undefined,
  pageNumber: number,
): Promise<PageAnswer<"companies", CompanyView>> {
  const { rows, count, window } = await repo.pageCompanyRows(deps.db, searchParam, pageNumber);
  return pageAnswer("companies", rows.map(view), count, window);
}

/** GET /api/companies/list (super): every company. */
export async function listCompanies(deps: AppDeps): Promise<CompanyView[]> {
  return (await repo.listCompanyRows(deps.db)).map(view);
}

export type CompanyInput = {
  name: string;
  email: string;
  phone: string | null;
  planId: number;
  status: boolean;
  campaignsEnabled: boolean;
  dueDate: string | null;
  recurrence: Recurrence;
  /** On create only: also make the company's first admin (its name and email, this password). */
  password?: string;
};

async function checkCompany(
  trx: AppDeps["db"],
  input: Partial<CompanyInput>,
  exceptId?: number,
) {
  if (input.planId !== undefined && !await repo.findPlan(trx, input.planId)) {
    throw notFound("ERR_NO_PLAN_FOUND", "Plano não encontrado");
  }
  if (input.name !== undefined && await repo.companyTaken(trx, "name", input.name, exceptId)) {
    throw new AppError(409, "ERR_DUPLICATED_NAME", COMPANY_SAVE_FAILED);
  }
  if (input.email && await repo.companyTaken(trx, "email", input.email, exceptId)) {
    throw new AppError(409, "ERR_DUPLICATED_EMAIL", COMPANY_SAVE_FAILED);
  }
}

/**
 * POST /api/companies (super): the company, its default settings and, given a password, its
 * first admin (the company's name and email), in one transaction.
 */
export async function createCompany(
  deps: AppDeps,
  auth: AuthInfo,
  input: CompanyInput,
): Promise<CompanyView> {
  const now = deps.clock.now().toISOString();
  const passwordHash = input.password === undefined
    ? undefined
    : await hashPassword(input.password, deps.config.bcryptCost);
  const id = await deps.db.transaction().execute(async (trx) => {
    await checkCompany(trx, input);
    if (passwordHash && await emailTaken(trx, input.email)) {
      throw new AppError(409, "ERR_DUPLICATED_EMAIL", COMPANY_SAVE_FAILED);
    }
    const id = await repo.insertCompany(trx, {
      name: input.name,
      email: input.email,
      phone: input.phone,
      planId: input.planId,
      status: input.status ? 1 : 0,
      dueDate: input.dueDate,
      recurrence: input.recurrence,
    }, now);
    await seedCompanySettings(trx, id, now);
    await repo.setCampaignsEnabled(trx, id, input.campaignsEnabled, now);
    if (passwordHash) {
      await repo.insertFirstAdmin(trx, id, {
        name: input.name,
        email: input.email,
        passwordHash,
      }, now);
    }
    const created = (await repo.findCompanyRow(trx, id))!;
    await auditBy(trx, auth, now, "company.created", { entity: "company", id, companyId: id }, {
      after: auditedFields(created),
    });
    return id;
  });
  return view((await repo.findCompanyRow(deps.db, id))!);
}

/**
 * PUT /api/companies/:id (super). A new plan applies at once (announcePlan); a company switched
 * off (status false) has its sockets closed and its connections stopped, and its users cannot
 * sign in again until it is switched on.
 */
export async function updateCompany(
  deps: AppDeps,
  auth: AuthInfo,
  id: number,
  input: Partial<CompanyInput>,
): Promise<CompanyView> {
  const now = deps.clock.now().toISOString();
  const { before, after } = await deps.db.transaction().execute(async (trx) => {
    const before = await repo.findCompanyRow(trx, id);
    if (!before) throw missing();
    if (input.status === false && await repo.hasSuperUser(trx, id)) throw protectedCompany();
    await checkCompany(trx, input, id);
    await repo.updateCompanyRow(trx, id, {
      name: input.name,
      email: input.email,
      phone: input.phone,
      planId: input.planId,
      status: input.status === undefined ? undefined : input.status ? 1 : 0,
      dueDate: input.dueDate,
      recurrence: input.recurrence,
      // A company switched on by hand is no longer the due-date job's block.
      ...(input.status === true ? { blockedAt: null } : {}),
      ...(input.dueDate !== undefined ? { overdueSince: null } : {}),
      updatedAt: now,
    });
    if (input.campaignsEnabled !== undefined) {
      await repo.setCampaignsEnabled(trx, id, input.campaignsEnabled, now);
    }
    const after = (await repo.findCompanyRow(trx, id))!;
    const diff = changedFields(auditedFields(before), auditedFields(after));
    if (Object.keys(diff.after).length > 0) {
      await auditBy(
        trx,
        auth,
        now,
        "company.updated",
        { entity: "company", id, companyId: id },
        diff,
      );
    }
    return { before, after };
  });
  if (after.planId !== before.planId) {
    announcePlan(
      deps,
      id,
      after.planId === null ? null : (await repo.findPlan(deps.db, after.planId)) ?? null,
    );
  }
  const result = view(after);
  if (before.status === 1 && after.status !== 1) await suspendCompany(deps, id);
  else deps.events.emit("company.updated", { company: result });
  return result;
}

/** A company switched off (by hand or by the due-date job): its sockets close, connections stop. */
export async function suspendCompany(deps: AppDeps, companyId: number) {
  disconnectCompany(deps.hub, companyId, "company inactive");
  await stopCompanyConnections(deps, companyId);
}

/**
 * DELETE /api/companies/:id (super): every row of the company in one transaction (tickets,
 * messages, contacts, users, connections and their WhatsApp auth state, and every other tenant
 * table), then its media folder. The platform's own company (a super user's) is refused.
 */
export async function deleteCompany(deps: AppDeps, auth: AuthInfo, id: number) {
  const company = await repo.findCompanyRow(deps.db, id);
  if (!company) throw missing();
  const now = deps.clock.now().toISOString();
  if (id === auth.companyId || await repo.hasSuperUser(deps.db, id)) throw protectedCompany();
  disconnectCompany(deps.hub, id, "company deleted");
  await stopCompanyConnections(deps, id);
  await deps.db.transaction().execute(async (trx) => {
    await repo.deleteCompanyData(trx, id);
    // The deleted company's rows, its log's too, are gone: the record stays with the platform's
    // company (the super user's), whose readers are the ones who could have done it.
    await auditBy(trx, auth, now, "company.deleted", { entity: "company", id }, {
      before: auditedFields(company),
    });
  });
  await sweepCompanyFiles(deps, id);
}
