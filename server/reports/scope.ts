import type { AuthInfo } from "../context.ts";
import { assertAllowed } from "../auth/policy.ts";

/**
 * Which queues a caller's reports cover: null for every queue of the company, or a list of queue
 * ids. The ONE access decision of the reports (issue 27): today reports are the admins' (the
 * policy line "report:read"; others get 403 ERR_NO_PERMISSION); supervisors of some queues are
 * answered here with their queues' ids when that role exists.
 */
export function reportScope(auth: AuthInfo): number[] | null {
  assertAllowed(auth, "report:read");
  return null;
}
