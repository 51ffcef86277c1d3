import { type Expression, type ExpressionBuilder, sql, type SqlBool } from "kysely";
import type { Database } from "../../db/client.ts";
import type { DB, QuickMessage } from "../../db/schema.ts";
import type { QuickMessageView } from "../../contract/quick_message_types.ts";
import { likePattern, pageAnswer, pageWindow } from "../paging.ts";

export type { QuickMessageView };

export function quickMessageView(q: QuickMessage): QuickMessageView {
  return {
    id: q.id,
    shortcode: q.shortcode,
    message: q.message,
    geral: q.geral === 1,
    queueId: q.queueId ?? null,
    userId: q.userId,
    companyId: q.companyId,
    isMedia: q.mediaPath !== null,
    mediaName: q.mediaName,
    createdAt: q.createdAt,
    updatedAt: q.updatedAt,
  };
}

export const QUICK_MESSAGES_PAGE_SIZE = 20;

/**
 * Who sees which quick answers: the company's general ones (not a queue's), one's own, and those
 * of one's queues (issue 28); admins all.
 */
export type QuickMessageScope = {
  companyId: number;
  userId: number;
  all: boolean;
  queueIds: readonly number[];
};

function scoped(eb: ExpressionBuilder<DB, "quick_messages">, scope: QuickMessageScope) {
  const all: Expression<SqlBool>[] = [eb("companyId", "=", scope.companyId)];
  if (!scope.all) {
    const readable = [
      eb.and([eb("geral", "=", 1), eb("queueId", "is", null)]),
      eb("userId", "=", scope.userId),
    ];
    if (scope.queueIds.length > 0) readable.push(eb("queueId", "in", scope.queueIds));
    all.push(eb.or(readable));
  }
  return eb.and(all);
}

/** GET /api/quick-messages/list: what the message input suggests after '/'. */
export async function listQuickMessages(
  db: Database,
  scope: QuickMessageScope,
): Promise<QuickMessageView[]> {
  const rows = await db.selectFrom("quick_messages").selectAll()
    .where((eb) => scoped(eb, scope)).orderBy("shortcode").orderBy("id").execute();
  return rows.map(quickMessageView);
}

export async function pageQuickMessages(
  db: Database,
  scope: QuickMessageScope,
  searchParam: string | undefined,
  pageNumber: number,
): Promise<{ records: QuickMessageView[]; count: number; hasMore: boolean }> {
  let q = db.selectFrom("quick_messages").where((eb) => scoped(eb, scope));
  const text = searchParam?.trim();
  if (text) {
    const pattern = likePattern(text);
    q = q.where(
      sql<boolean>`(shortcode LIKE ${pattern} ESCAPE '\\' OR message LIKE ${pattern} ESCAPE '\\')`,
    );
  }
  const window = pageWindow(pageNumber, QUICK_MESSAGES_PAGE_SIZE);
  const rows = await q.selectAll().orderBy("shortcode").orderBy("id")
    .limit(window.limit).offset(window.offset).execute();
  const total = await q.select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow();
  const count = Number(total.n);
  return pageAnswer("records", rows.map(quickMessageView), count, window);
}

export async function findQuickMessage(
  db: Database,
  companyId: number,
  id: number,
): Promise<QuickMessage | undefined> {
  return await db.selectFrom("quick_messages").selectAll().where("id", "=", id)
    .where("companyId", "=", companyId).executeTakeFirst();
}

export async function insertQuickMessage(
  db: Database,
  row: Omit<QuickMessage, "id">,
): Promise<QuickMessage> {
  return await db.insertInto("quick_messages").values(row).returningAll()
    .executeTakeFirstOrThrow();
}

export async function updateQuickMessage(
  db: Database,
  companyId: number,
  id: number,
  patch: Partial<Omit<QuickMessage, "id" | "companyId" | "createdAt">>,
): Promise<QuickMessage | undefined> {
  return await db.updateTable("quick_messages").set(patch).where("id", "=", id)
    .where("companyId", "=", companyId).returningAll().executeTakeFirst();
}

export async function deleteQuickMessage(db: Database, companyId: number, id: number) {
  await db.deleteFrom("quick_messages").where("id", "=", id).where("companyId", "=", companyId)
    .execute();
}
