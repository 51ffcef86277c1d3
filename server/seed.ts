import type { Database } from "../db/client.ts";
import { generatePassword, hashPassword } from "./auth/passwords.ts";
import type { Clock } from "./clock.ts";
import { isoDate } from "./clock.ts";
import type { Config } from "./config.ts";
import { insertCompany } from "./companies/repository.ts";
import { log } from "./log.ts";
import { claimFirstStart, insertFirstPlan } from "./seed_repository.ts";
import { insertMissingSettings } from "./settings/repository.ts";
import { insertUser } from "./users/repository.ts";
import { DEFAULT_SETTINGS } from "./settings/defaults.ts";

/** Writes a company's default settings; keys it already has are kept. */
export async function seedCompanySettings(db: Database, companyId: number, now: string) {
  await insertMissingSettings(db, companyId, DEFAULT_SETTINGS, now);
}

export type FirstStart = { seeded: false } | {
  seeded: true;
  email: string;
  generatedPassword?: string;
};

/**
 * First start only: a plan with every feature on, a first company due a year ahead, its
 * default settings and a super admin. A marker row makes every later start a no-op.
 */
export async function seedFirstStart(
  db: Database,
  config: Config,
  clock: Clock,
): Promise<FirstStart> {
  const now = clock.now();
  const stamp = now.toISOString();
  return await db.transaction().execute(async (trx) => {
    if (!await claimFirstStart(trx, stamp)) return { seeded: false } as const;
    const planId = await insertFirstPlan(trx, stamp);
    const due = new Date(now);
    due.setUTCFullYear(due.getUTCFullYear() + 1);
    const companyId = await insertCompany(trx, {
      name: "Empresa 1",
      email: config.adminEmail,
      phone: null,
      planId,
      status: 1,
      dueDate: isoDate(due),
      recurrence: "MENSAL",
    }, stamp);
    await seedCompanySettings(trx, companyId, stamp);
    const password = config.adminPassword ?? generatePassword();
    await insertUser(trx, {
      companyId,
      name: "Admin",
      email: config.adminEmail.toLowerCase(),
      passwordHash: await hashPassword(password, config.bcryptCost),
      profile: "admin",
      super: 1,
      whatsappId: null,
      lastSeenAt: null,
      createdAt: stamp,
      updatedAt: stamp,
    });
    return {
      seeded: true,
      email: config.adminEmail,
      generatedPassword: config.adminPassword ? undefined : password,
    } as const;
  });
}

/** Prints the first-start credentials once, when the password was generated. */
export function announceFirstStart(result: FirstStart) {
  if (!result.seeded) return;
  if (result.generatedPassword) {
    // deno-lint-ignore no-console
    console.log(
      `\n  First start: super admin ${result.email}\n  Generated password (shown once): ${result.generatedPassword}\n`,
    );
  } else {
    log.info("first start: super admin created", { email: result.email });
  }
}
