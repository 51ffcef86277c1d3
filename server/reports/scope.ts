import type { AppDeps, AuthInfo } from "../context.ts";
import { assertAllowed, assertRecord, isAllowed } from "../auth/policy.ts";
import { reportScopeNeeds } from "../../contract/record_policy.ts";
import { supervisedQueueIds } from "../users/repository.ts";

/**
 * Which queues a caller's reports cover: null for every queue of the company, or a list of queue
 * ids. The ONE access decision of the reports (issue 27; the route's gate "report:read" lets every
 * user through to it, contract/policy.ts SERVICE_DECIDES): "report:read-all" (admins) -> every
 * queue; otherwise the record rule reportScopeNeeds (contract/record_policy.ts) over the queues
 * the user supervises (user_queues.supervisor, issue 26, read here and never taken from the
 * client): those queues, or 403 ERR_NO_PERMISSION when there are none.
 */
export async function reportScope(deps: AppDeps, auth: AuthInfo): Promise<number[] | null> {
  assertAllowed(auth, "report:read");
  if (isAllowed(auth, "report:read-all")) return null;
  const queueIds = await supervisedQueueIds(deps.db, auth.companyId, auth.userId);
  assertRecord(auth, reportScopeNeeds(queueIds));
  return queueIds;
}
