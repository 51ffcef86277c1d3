import type { Company } from "../../db/schema.ts";
import { type PlanFlags, planFlags } from "../auth/service.ts";
import type { AppDeps, AuthInfo } from "../context.ts";
import { notFound } from "../errors.ts";
import { defaultWorkingHours, parseWorkingHours, type WorkingHoursEntry } from "../queues/hours.ts";
import * as repo from "./repository.ts";

/** A company as its users see it (seeds/001 section 3 'Company'). */
export type CompanyView = {
  id: number;
  name: string;
  email: string | null;
  phone: string | null;
  planId: number | null;
  status: boolean;
  dueDate: string | null;
  recurrence: string | null;
  /**
   * Weekly working hours for scheduleType "company". A company that never saved any shows the
   * defaults (Mon-Fri 08-18, Sat 08-12, Sun closed), which is also what routing should assume.
   */
  schedules: WorkingHoursEntry[];
  billingName: string | null;
  addressZipCode: string | null;
  addressStreet: string | null;
  addressState: string | null;
  addressCity: string | null;
  addressDistrict: string | null;
  createdAt: string;
  updatedAt: string;
};

/** The company's hours as routing should use them: saved ones, else the defaults. */
export function companyWorkingHours(company: Pick<Company, "schedules">): WorkingHoursEntry[] {
  const saved = parseWorkingHours(company.schedules);
  return saved.length ? saved : defaultWorkingHours();
}

function view(c: Company): CompanyView {
  return {
    id: c.id,
    name: c.name,
    email: c.email,
    phone: c.phone,
    planId: c.planId,
    status: c.status === 1,
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

/** Users read their own company; super users any. Anything else looks missing. */
async function visibleCompany(deps: AppDeps, auth: AuthInfo, id: number): Promise<Company> {
  const company = id === auth.companyId || auth.isSuper
    ? await repo.findCompany(deps.db, id)
    : undefined;
  if (!company) throw notFound("ERR_NO_COMPANY_FOUND", "Empresa não encontrada");
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
  await visibleCompany(deps, auth, id);
  const now = deps.clock.now().toISOString();
  const row = await repo.setCompanySchedules(deps.db, id, JSON.stringify(schedules), now);
  if (!row) throw notFound("ERR_NO_COMPANY_FOUND", "Empresa não encontrada");
  return view(row);
}
