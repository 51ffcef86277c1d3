import type { Whatsapp } from "../../db/schema.ts";
import { assertPlanFlag } from "../auth/middleware.ts";
import { assertCompanyActive } from "../auth/service.ts";
import { findCompany, findPlan } from "../companies/repository.ts";
import type { AppDeps } from "../context.ts";
import { AppError } from "../errors.ts";
import { findWhatsappByTokenHash } from "./repository.ts";
import { tokenHash } from "./tokens.ts";

function refused(message: string): AppError {
  return new AppError(401, "ERR_UNAUTHORIZED", message);
}

/**
 * The connection a send API request speaks for, from `Authorization: Bearer <connection token>`.
 * A missing or unknown token, or the token of a deleted connection (its row is gone) is 401
 * ERR_UNAUTHORIZED; a company that is inactive or past its due date is 401
 * ERR_SUBSCRIPTION_EXPIRED; a plan without useExternalApi is 403 ERR_PLAN_FEATURE_DISABLED. The
 * company is the connection's: nothing in the request can name another.
 */
export async function connectionOfToken(
  deps: AppDeps,
  authorization: string | undefined,
): Promise<Whatsapp> {
  const [scheme, token, extra] = (authorization ?? "").trim().split(/\s+/);
  if (scheme?.toLowerCase() !== "bearer" || !token || extra !== undefined) {
    throw refused("Informe o token da conexão: Authorization: Bearer <token>");
  }
  if (token.length > 200) throw refused("Token inválido");
  const hash = await tokenHash(token);
  const whatsapp = await findWhatsappByTokenHash(deps.db, hash);
  // Only the hash is stored: finding it is the match (a preimage of SHA-256 cannot be forged).
  if (!whatsapp) throw refused("Token inválido");
  const company = await findCompany(deps.db, whatsapp.companyId);
  if (!company) throw refused("Token inválido");
  assertCompanyActive({ super: 0 }, company, deps.clock.now());
  const plan = company.planId === null ? undefined : await findPlan(deps.db, company.planId);
  assertPlanFlag(plan, "useExternalApi");
  return whatsapp;
}
