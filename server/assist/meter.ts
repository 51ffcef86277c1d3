import type { AppDeps, AuthInfo } from "../context.ts";
import { recordAudit } from "../audit/service.ts";
import { getSettingValue, upsertSetting } from "../settings/repository.ts";
import { ASSIST_FEATURES, assistAccount, monthOf } from "./account.ts";
import { addUsage, lockCompanyNotice, monthUsage, monthUsageCost } from "./repository.ts";
import type { AssistFeature } from "./account.ts";
import type { AssistUsageView } from "../../contract/assist_types.ts";

/**
 * Issue 48: what the assistant spent. Each call adds to the month's meter of its feature (calls,
 * failures, tokens, audio seconds, estimated cost) and writes an audit row (feature, model,
 * status, tokens: never a message's text), in one transaction. Admins are told (setting
 * `assistNotice`, heard on the admins' settings channel) when the cap pauses the features or the
 * key is refused; the notice is written only when it changes, so they are told once.
 */
export type CallOutcome = {
  ok: boolean;
  status: number;
  model: string;
  tokens: number;
  seconds: number;
  costMicros: number;
  wrongKey?: boolean;
};

export type CallTarget = {
  companyId: number;
  feature: AssistFeature;
  /** What the call was about (the audit row's entity): a message or a ticket. */
  entity: "message" | "ticket";
  entityId: number;
  userId: number | null;
};

export const ASSIST_NOTICE = "assistNotice";
export type AssistNotice = "" | "cap" | "wrongKey";

type MeterDeps = Pick<AppDeps, "db" | "events" | "clock">;

export async function recordCall(deps: MeterDeps, target: CallTarget, outcome: CallOutcome) {
  const now = deps.clock.now();
  const at = now.toISOString();
  await deps.db.transaction().execute(async (trx) => {
    await addUsage(trx, target.companyId, monthOf(now), target.feature, {
      calls: 1,
      failures: outcome.ok ? 0 : 1,
      tokens: outcome.tokens,
      seconds: outcome.seconds,
      costMicros: outcome.costMicros,
    });
    await recordAudit(trx, at, {
      companyId: target.companyId,
      actor: { userId: target.userId, userName: null, ip: null, userAgent: null },
      action: "assist.called",
      entity: target.entity,
      entityId: target.entityId,
      after: {
        feature: target.feature,
        model: outcome.model,
        ok: outcome.ok,
        status: outcome.status,
        tokens: outcome.tokens,
        seconds: outcome.seconds,
        costMicros: outcome.costMicros,
      },
    });
  });
  if (outcome.wrongKey) await tellAdmins(deps, target.companyId, "wrongKey");
  else if (outcome.ok) await tellAdmins(deps, target.companyId, "", "wrongKey");
}

/**
 * Sets the company's notice when it differs (`only`: only when it is that one now); the admins'
 * sockets hear it as a settings update (secret: admins only).
 */
export async function tellAdmins(
  deps: MeterDeps,
  companyId: number,
  notice: AssistNotice,
  only?: AssistNotice,
) {
  const now = deps.clock.now().toISOString();
  const changed = await deps.db.transaction().execute(async (trx) => {
    await lockCompanyNotice(trx, companyId);
    const current = (await getSettingValue(trx, companyId, ASSIST_NOTICE)) ?? "";
    if (current === notice || (only !== undefined && current !== only)) return false;
    await upsertSetting(trx, companyId, ASSIST_NOTICE, notice, now);
    return true;
  });
  if (changed) {
    deps.events.emit("setting.updated", {
      companyId,
      setting: { key: ASSIST_NOTICE, value: notice },
      secret: true,
    });
  }
}

/** GET /api/assist/usage: the month's meter per feature, the cap and the notice (admins). */
export async function assistUsage(deps: AppDeps, auth: AuthInfo): Promise<AssistUsageView> {
  const month = monthOf(deps.clock.now());
  const rows = await monthUsage(deps.db, auth.companyId, month);
  const { account } = await assistAccount(deps, auth.companyId);
  const byFeature = new Map(rows.map((r) => [r.feature, r]));
  const spent = await monthUsageCost(deps.db, auth.companyId, month);
  return {
    month,
    features: ASSIST_FEATURES.map((feature) => {
      const r = byFeature.get(feature);
      return {
        feature,
        calls: r?.calls ?? 0,
        failures: r?.failures ?? 0,
        tokens: r?.tokens ?? 0,
        seconds: r?.seconds ?? 0,
        cost: (r?.costMicros ?? 0) / 1_000_000,
      };
    }),
    cost: spent / 1_000_000,
    cap: account?.capDollars ?? 0,
    notice: ((await getSettingValue(deps.db, auth.companyId, ASSIST_NOTICE)) ?? "") as AssistNotice,
    account: account !== undefined,
  };
}
