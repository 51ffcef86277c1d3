import type { Channel } from "./events.ts";
import type { Hub } from "./hub.ts";

/**
 * Live list updates (seeds/001 section 4 'Live updates', seeds/002 section 7): a resource's
 * changes go to `company-<id>-<channel>` as `{ action: "create" | "update", record }`,
 * `{ action: "delete", id }` or `{ action: "reload" }` (many rows changed: read the list again).
 * The list kit (islands/lib/list/) reads exactly these. Publish after the commit, never inside the
 * transaction: a listener that reads back must find the change.
 *
 * `legacyKey` also writes the record and id under the names the seeds' core client reads for
 * users and contacts (`user`, `userId`; `contact`, `contactId`).
 */
export type ResourceEvent<T> =
  | { action: "create" | "update"; record: T }
  | { action: "delete"; id: number }
  | { action: "reload" };

export function publishResource<T>(
  hub: Hub,
  companyId: number,
  channel: Channel,
  event: ResourceEvent<T>,
  legacyKey?: string,
): number {
  let data: Record<string, unknown> = event;
  if (legacyKey && "record" in event) data = { ...event, [legacyKey]: event.record };
  if (legacyKey && "id" in event) data = { ...event, [`${legacyKey}Id`]: event.id };
  return hub.publish(companyId, channel, data);
}
