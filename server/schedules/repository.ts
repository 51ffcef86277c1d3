import { type Expression, type ExpressionBuilder, sql, type SqlBool } from "kysely";
import type { Database } from "../../db/client.ts";
import type { DB, Schedule } from "../../db/schema.ts";
import type { ScheduleStatus, ScheduleView } from "../../contract/schedule_types.ts";
import { parseSendTemplate } from "../../contract/channels.ts";
import { likePattern, pageAnswer, pageWindow } from "../paging.ts";

export type { ScheduleStatus, ScheduleView };

export const SCHEDULES_PAGE_SIZE = 20;

export type ScheduleScope = { companyId: number; userId: number; all: boolean };

function base(db: Database) {
  return db.selectFrom("schedules as s")
    .leftJoin("contacts as c", "c.id", "s.contactId")
    .leftJoin("users as u", "u.id", "s.userId")
    // The queued message: its sendError is the provider's refusal after the job handed it over.
    .leftJoin("messages as m", "m.id", "s.messageId");
}

const columns = [
  "s.id",
  "s.body",
  "s.contactId",
  "s.ticketId",
  "s.userId",
  "s.sendAt",
  "s.sentAt",
  "s.status",
  "s.mediaName",
  "s.mediaPath",
  "s.template",
  "s.companyId",
  "s.createdAt",
  "s.updatedAt",
  "c.name as contactName",
  "c.number as contactNumber",
  "u.name as userName",
  "s.errorCode",
  "m.sendError as messageError",
] as const;

type Row = {
  id: number;
  body: string;
  contactId: number;
  ticketId: number | null;
  userId: number | null;
  sendAt: string;
  sentAt: string | null;
  status: string;
  mediaName: string | null;
  mediaPath: string | null;
  template: string | null;
  companyId: number;
  createdAt: string;
  updatedAt: string;
  contactName: string | null;
  contactNumber: string | null;
  userName: string | null;
  errorCode: string | null;
  messageError: string | null;
};

function view(r: Row): ScheduleView {
  return {
    id: r.id,
    body: r.body,
    contactId: r.contactId,
    contact: r.contactName === null
      ? null
      : { id: r.contactId, name: r.contactName, number: r.contactNumber ?? "" },
    ticketId: r.ticketId,
    userId: r.userId,
    user: r.userId !== null && r.userName !== null ? { id: r.userId, name: r.userName } : null,
    sendAt: r.sendAt,
    sentAt: r.sentAt,
    // Sent by the job but refused by the provider afterwards: a send error all the same.
    status: r.status === "ENVIADA" && r.messageError ? "ERRO" : r.status as ScheduleStatus,
    errorCode: r.errorCode ?? r.messageError,
    mediaName: r.mediaName,
    mediaUrl: r.mediaPath ? `/api/schedules/${r.id}/media` : null,
    template: parseSendTemplate(r.template),
    companyId: r.companyId,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
  };
}

type Eb = ExpressionBuilder<
  DB & { s: DB["schedules"]; c: DB["contacts"]; u: DB["users"]; m: DB["messages"] },
  "s" | "c" | "u" | "m"
>;

function scoped(eb: Eb, scope: ScheduleScope): Expression<SqlBool> {
  const all: Expression<SqlBool>[] = [eb("s.companyId", "=", scope.companyId)];
  if (!scope.all) all.push(eb("s.userId", "=", scope.userId));
  return eb.and(all);
}

/** Admins see the company's schedules; a user the ones they created. */
export async function pageSchedules(
  db: Database,
  scope: ScheduleScope,
  filters: { searchParam?: string; contactId?: number; pageNumber: number },
): Promise<{ schedules: ScheduleView[]; count: number; hasMore: boolean }> {
  let q = base(db).where((eb) => scoped(eb, scope));
  if (filters.contactId !== undefined) q = q.where("s.contactId", "=", filters.contactId);
  const text = filters.searchParam?.trim();
  if (text) {
    const pattern = likePattern(text);
    q = q.where(
      sql<boolean>`(s.body LIKE ${pattern} ESCAPE '\\' OR c.name LIKE ${pattern} ESCAPE '\\')`,
    );
  }
  const window = pageWindow(filters.pageNumber, SCHEDULES_PAGE_SIZE);
  const rows = await q.select(columns).orderBy("s.sendAt", "desc").orderBy("s.id", "desc")
    .limit(window.limit).offset(window.offset).execute();
  const total = await q.select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow();
  const count = Number(total.n);
  return pageAnswer("schedules", rows.map(view), count, window);
}

export async function findScheduleView(
  db: Database,
  companyId: number,
  id: number,
): Promise<ScheduleView | undefined> {
  const row = await base(db).select(columns).where("s.id", "=", id)
    .where("s.companyId", "=", companyId).executeTakeFirst();
  return row ? view(row) : undefined;
}

export async function findSchedule(
  db: Database,
  companyId: number,
  id: number,
): Promise<Schedule | undefined> {
  return await db.selectFrom("schedules").selectAll().where("id", "=", id)
    .where("companyId", "=", companyId).executeTakeFirst();
}

export async function insertSchedule(db: Database, row: Omit<Schedule, "id">): Promise<number> {
  return (await db.insertInto("schedules").values(row).returning("id").executeTakeFirstOrThrow())
    .id;
}

export async function updateSchedule(
  db: Database,
  companyId: number,
  id: number,
  patch: Partial<Omit<Schedule, "id" | "companyId" | "createdAt">>,
): Promise<void> {
  await db.updateTable("schedules").set(patch).where("id", "=", id)
    .where("companyId", "=", companyId).execute();
}

export async function deleteSchedule(db: Database, companyId: number, id: number) {
  await db.deleteFrom("schedules").where("id", "=", id).where("companyId", "=", companyId)
    .execute();
}
