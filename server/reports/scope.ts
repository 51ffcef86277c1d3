import type { AppDeps, AuthInfo } from "../context.ts";
import { assertAllowed, isAllowed } from "../auth/policy.ts";
import { forbidden } from "../errors.ts";
import { supervisedQueueIds } from "../users/repository.ts";

/**
 * Which queues a caller's reports cover: null for every queue of the company, or a list of queue
 * ids. The ONE access decision of the reports (issue 27; the route's gate "report:read" lets every
 * user through to it, contract/policy.ts SERVICE_DECIDES): "report:read-all" (admins) -> every
 * queue; a user who supervises queues (user_queues.supervisor, issue 26, read here and never taken
 * from the client) -> those queues; anyone else -> 403 ERR_NO_PERMISSION.
 */
export async function reportScope(deps: AppDeps, auth: AuthInfo): Promise<number[] | null> {
  assertAllowed(auth, "report:read");
  if (isAllowed(auth, "report:read-all")) return null;
  const queueIds = await supervisedQueueIds(deps.db, auth.companyId, auth.userId);
  if (queueIds.length === 0) throw forbidden();
  return queueIds;
}
