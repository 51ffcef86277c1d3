import { assertBelowLimit } from "../plans/features.ts";
import { isUniqueViolation } from "../../db/constraints.ts";
import type { User } from "../../db/schema.ts";
import { hashPassword } from "../auth/passwords.ts";
import { endUserSessions } from "../auth/service.ts";
import type { AppDeps, AuthInfo } from "../context.ts";
import { AppError, notFound } from "../errors.ts";
import { actorOf, changedFields, recordAudit } from "../audit/service.ts";
import { assertAllowed, assertRecord, isAllowed } from "../auth/policy.ts";
import { userAccessNeeds, userEditNeeds } from "../../contract/record_policy.ts";
import { disconnectUser, updateUserMembers } from "../realtime/members.ts";
import { ticketChange } from "../events/domain.ts";
import { noteReleased } from "../events/outgoing_repository.ts";
import { getSettingValue } from "../settings/repository.ts";
import { loadTicketViews } from "../tickets/view_repository.ts";
import { ownedCount, owns } from "../references_repository.ts";
import * as repo from "./repository.ts";
import { pageAnswer, pageWindow } from "../paging.ts";
import type { UserRow } from "../../contract/people_types.ts";

/** A user as the API and the socket answer it: never the password hash or token version. */
export type UserView = UserRow;

export type UserInput = {
  name: string;
  email: string;
  password: string;
  profile: "admin" | "user";
  queueIds: number[];
  whatsappId: number | null;
  allTicket: "enable" | "disable";
  super: boolean;
  maxOpenTickets?: number | null;
  /** Issue 26: the queues (among queueIds) the user supervises. */
  supervisedQueueIds?: number[];
  /** Issue 26: the user's daily hours for distribution (HH:MM; both null: any time). */
  startWork?: string | null;
  endWork?: string | null;
};

export const USERS_PAGE_SIZE = 20;

function plainQueues(queues: repo.QueueRef[] | undefined) {
  return (queues ?? []).map(({ id, name, color }) => ({ id, name, color }));
}

/**
 * The queues a user supervises must be among their queues (issue 26: a mark on the membership);
 * setting any is an admin's (user:set-supervisor).
 */
function checkSupervised(auth: AuthInfo, supervised: readonly number[], queueIds: number[]) {
  if (supervised.length === 0) return [];
  assertAllowed(auth, "user:set-supervisor", "Somente administradores definem supervisores");
  if (!supervised.every((id) => queueIds.includes(id))) {
    throw new AppError(
      400,
      "ERR_SUPERVISED_QUEUE_NOT_MEMBER",
      "O usuário só supervisiona filas das quais faz parte",
    );
  }
  return [...new Set(supervised)];
}

/** Work hours are both set (and differ: a shift may cross midnight) or both unset. */
function checkWorkHours(startWork: string | null, endWork: string | null) {
  if (
    (startWork === null) !== (endWork === null) || (startWork !== null && startWork === endWork)
  ) {
    throw new AppError(
      400,
      "ERR_INVALID_WORK_HOURS",
      "Informe o início e o fim do expediente, diferentes, ou nenhum dos dois",
    );
  }
}

async function views(deps: AppDeps, companyId: number, rows: User[]): Promise<UserView[]> {
  const [queues, whatsapps] = await Promise.all([
    repo.queuesOfUsers(deps.db, companyId, rows.map((r) => r.id)),
    repo.whatsappNames(
      deps.db,
      companyId,
      rows.map((r) => r.whatsappId).filter((id): id is number => id !== null),
    ),
  ]);
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    email: r.email,
    profile: r.profile.toLowerCase() === "admin" ? "admin" : "user",
    super: r.super === 1,
    companyId: r.companyId,
    whatsappId: r.whatsappId,
    whatsapp: r.whatsappId !== null && whatsapps.has(r.whatsappId)
      ? { id: r.whatsappId, name: whatsapps.get(r.whatsappId)! }
      : null,
    allTicket: r.allTicket === "enable" ? "enable" : "disable",
    online: r.online === 1,
    maxOpenTickets: r.maxOpenTickets ?? null,
    queues: plainQueues(queues.get(r.id)),
    supervisedQueueIds: (queues.get(r.id) ?? []).filter((q) => q.supervisor).map((q) => q.id),
    startWork: r.startWork ?? null,
    endWork: r.endWork ?? null,
    twoFactor: r.twoFactorEnabledAt !== null,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
  }));
}

async function viewOf(deps: AppDeps, companyId: number, id: number): Promise<UserView> {
  const row = await repo.findUser(deps.db, companyId, id);
  if (!row) throw notFound("ERR_NO_USER_FOUND", "Usuário não encontrado");
  return (await views(deps, companyId, [row]))[0];
}

function duplicatedEmail(): AppError {
  return new AppError(409, "ERR_DUPLICATED_EMAIL", "Já existe um usuário com este e-mail");
}

/** Queue and connection ids must be the caller's company's (404 like a missing one). */
async function checkReferences(
  deps: AppDeps,
  companyId: number,
  input: { queueIds?: number[]; whatsappId?: number | null },
) {
  const queueIds = [...new Set(input.queueIds ?? [])];
  if (queueIds.length) {
    if (await ownedCount(deps.db, companyId, "queues", queueIds) !== queueIds.length) {
      throw notFound("ERR_NO_QUEUE_FOUND", "Fila não encontrada");
    }
  }
  if (input.whatsappId !== undefined && input.whatsappId !== null) {
    if (!await owns(deps.db, companyId, "whatsapps", input.whatsappId)) {
      throw notFound("ERR_NO_WAPP_FOUND", "Conexão não encontrada");
    }
  }
  return queueIds;
}

/** GET /api/users: a page of users by name (seeds/000 section 7). */
export async function listUsersPage(
  deps: AppDeps,
  companyId: number,
  query: { searchParam?: string; pageNumber: number },
) {
  const window = pageWindow(query.pageNumber, USERS_PAGE_SIZE);
  const { rows, count } = await repo.listUsers(deps.db, companyId, {
    search: query.searchParam,
    ...window,
  });
  return pageAnswer("users", await views(deps, companyId, rows), count, window);
}

/** GET /api/users/list: every user of the company for pickers (transfer, filters). */
export async function listUserOptions(
  deps: AppDeps,
  companyId: number,
  query: { searchParam?: string },
) {
  const { rows } = await repo.listUsers(deps.db, companyId, {
    search: query.searchParam,
    limit: 1000,
    offset: 0,
  });
  const queues = await repo.queuesOfUsers(deps.db, companyId, rows.map((r) => r.id));
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    email: r.email,
    profile: r.profile.toLowerCase() === "admin" ? "admin" : "user",
    online: r.online === 1,
    queues: plainQueues(queues.get(r.id)),
  }));
}

export async function getUser(deps: AppDeps, companyId: number, id: number): Promise<UserView> {
  return await viewOf(deps, companyId, id);
}

/**
 * Creates a user of the caller's company (admins). Refused when the company's setting
 * userCreation is disabled (except for super users), when the plan's user limit is reached,
 * and for the super flag unless the caller is super.
 */
export async function createUser(
  deps: AppDeps,
  auth: AuthInfo,
  input: UserInput,
): Promise<UserView> {
  const companyId = auth.companyId;
  if (input.super) {
    assertAllowed(auth, "user:manage-super", "Somente super usuários concedem o acesso super");
  }
  if (
    !isAllowed(auth, "user:create-when-disabled") &&
    await getSettingValue(deps.db, companyId, "userCreation") === "disabled"
  ) {
    throw new AppError(403, "ERR_USER_CREATION_DISABLED", "A criação de usuários está desativada");
  }
  const queueIds = await checkReferences(deps, companyId, input);
  const supervised = checkSupervised(auth, input.supervisedQueueIds ?? [], queueIds);
  checkWorkHours(input.startWork ?? null, input.endWork ?? null);
  const passwordHash = await hashPassword(input.password, deps.config.bcryptCost);
  const now = deps.clock.now().toISOString();
  let id: number;
  try {
    id = await deps.db.transaction().execute(async (trx) => {
      assertBelowLimit(auth.plan, "users", await repo.countUsers(trx, companyId));
      if (await repo.emailTaken(trx, input.email)) throw duplicatedEmail();
      const row = await repo.insertUser(trx, {
        companyId,
        name: input.name,
        email: input.email,
        passwordHash,
        profile: input.profile,
        super: input.super ? 1 : 0,
        whatsappId: input.whatsappId,
        allTicket: input.allTicket,
        maxOpenTickets: input.maxOpenTickets ?? null,
        startWork: input.startWork ?? null,
        endWork: input.endWork ?? null,
        lastSeenAt: null,
        createdAt: now,
        updatedAt: now,
      });
      await repo.setUserQueues(trx, companyId, row.id, queueIds, supervised);
      await recordAudit(trx, now, {
        companyId,
        actor: actorOf(auth),
        action: "user.created",
        entity: "user",
        entityId: row.id,
        after: {
          name: input.name,
          email: input.email,
          profile: input.profile,
          super: input.super,
          queueIds,
          supervisedQueueIds: supervised,
          whatsappId: input.whatsappId,
          allTicket: input.allTicket,
        },
      });
      return row.id;
    });
  } catch (error) {
    if (isUniqueViolation(error, "users.email")) throw duplicatedEmail();
    throw error;
  }
  const user = await viewOf(deps, companyId, id);
  deps.events.emit("list.changed", {
    companyId,
    resource: "user",
    change: { action: "create", record: user },
  });
  return user;
}

function sameSet(a: readonly number[], b: readonly number[]): boolean {
  const sa = new Set(a);
  return sa.size === new Set(b).size && b.every((x) => sa.has(x));
}

/**
 * Updates a user (seeds/000 sections 5 and 6). A non-admin may change only their own name,
 * email and password; profile and queues are admin fields (user-modal:editProfile/editQueues);
 * nobody changes their own profile or super flag; only super users touch super users.
 * Fields sent unchanged are not changes (the form sends every field).
 *
 * A new password ends every session of that user (refresh tokens revoked, access tokens
 * invalidated, sockets closed). `sessionEnded` tells the caller their own session was among
 * them, so the client logs in again with the new password.
 */
export async function updateUser(
  deps: AppDeps,
  auth: AuthInfo,
  id: number,
  input: Partial<UserInput>,
): Promise<{ user: UserView; sessionEnded: boolean }> {
  const companyId = auth.companyId;
  const target = await repo.findUser(deps.db, companyId, id);
  if (!target) throw notFound("ERR_NO_USER_FOUND", "Usuário não encontrado");
  const self = target.id === auth.userId;
  assertRecord(auth, userEditNeeds(auth, target), "Você só pode editar o seu próprio perfil");
  if (target.super === 1) {
    assertAllowed(auth, "user:manage-super", "Somente super usuários editam este usuário");
  }

  const currentQueues = await repo.userQueueIds(deps.db, companyId, id);
  const currentSupervised = await repo.supervisedQueueIds(deps.db, companyId, id);
  const changes = {
    profile: input.profile !== undefined && input.profile !== target.profile.toLowerCase(),
    super: input.super !== undefined && input.super !== (target.super === 1),
    queues: input.queueIds !== undefined && !sameSet(input.queueIds, currentQueues),
    whatsapp: input.whatsappId !== undefined && input.whatsappId !== target.whatsappId,
    allTicket: input.allTicket !== undefined && input.allTicket !== target.allTicket,
    capacity: input.maxOpenTickets !== undefined &&
      input.maxOpenTickets !== (target.maxOpenTickets ?? null),
    supervised: input.supervisedQueueIds !== undefined &&
      !sameSet(input.supervisedQueueIds, currentSupervised),
    workHours: (input.startWork !== undefined && input.startWork !== target.startWork) ||
      (input.endWork !== undefined && input.endWork !== target.endWork),
  };
  if (changes.profile) {
    assertRecord(
      auth,
      userAccessNeeds(auth, target, "user:set-profile"),
      self ? "Você não pode alterar o seu próprio perfil" : undefined,
    );
  }
  if (changes.super) {
    assertRecord(
      auth,
      userAccessNeeds(auth, target, "user:manage-super"),
      "Somente outro super usuário altera o acesso super",
    );
  }
  if (
    changes.queues || changes.whatsapp || changes.allTicket || changes.capacity ||
    changes.workHours
  ) {
    assertAllowed(
      auth,
      "user:set-queues",
      "Somente administradores alteram filas e conexão padrão",
    );
  }
  const queueIds = changes.queues
    ? await checkReferences(deps, companyId, { queueIds: input.queueIds })
    : undefined;
  if (changes.workHours) {
    checkWorkHours(
      input.startWork !== undefined ? input.startWork : target.startWork,
      input.endWork !== undefined ? input.endWork : target.endWork,
    );
  }
  if (changes.supervised) {
    assertAllowed(auth, "user:set-supervisor", "Somente administradores definem supervisores");
  }
  // Leaving a queue ends its supervision; the marks sent (or kept) must be on the user's queues.
  const supervised = changes.supervised || changes.queues
    ? checkSupervised(
      auth,
      changes.supervised
        ? input.supervisedQueueIds!
        : currentSupervised.filter((q) => (queueIds ?? currentQueues).includes(q)),
      queueIds ?? currentQueues,
    )
    : undefined;
  if (changes.whatsapp) await checkReferences(deps, companyId, { whatsappId: input.whatsappId });

  const passwordChanged = input.password !== undefined && input.password !== "";
  const passwordHash = passwordChanged
    ? await hashPassword(input.password!, deps.config.bcryptCost)
    : undefined;
  // A new password, or rights granted or taken by an admin, end the user's sessions: the
  // tokens issued under the old rights stop at once and the user logs in again.
  const endReason = passwordChanged
    ? "passwordChanged"
    : changes.profile || changes.super
    ? "profileChanged"
    : undefined;
  const now = deps.clock.now().toISOString();
  try {
    await deps.db.transaction().execute(async (trx) => {
      if (input.email !== undefined && await repo.emailTaken(trx, input.email, id)) {
        throw duplicatedEmail();
      }
      await repo.updateUserRow(trx, companyId, id, {
        name: input.name,
        email: input.email,
        passwordHash,
        profile: changes.profile ? input.profile : undefined,
        super: changes.super ? (input.super ? 1 : 0) : undefined,
        whatsappId: changes.whatsapp ? input.whatsappId : undefined,
        allTicket: changes.allTicket ? input.allTicket : undefined,
        maxOpenTickets: changes.capacity ? input.maxOpenTickets : undefined,
        startWork: changes.workHours ? input.startWork : undefined,
        endWork: changes.workHours ? input.endWork : undefined,
        updatedAt: now,
      });
      if (supervised) {
        await repo.setUserQueues(trx, companyId, id, queueIds ?? currentQueues, supervised);
      }
      if (endReason) await endUserSessions(trx, companyId, id, now, endReason);
      const diff = changedFields({
        name: target.name,
        email: target.email,
        profile: target.profile.toLowerCase(),
        super: target.super === 1,
        queueIds: currentQueues,
        supervisedQueueIds: currentSupervised,
        startWork: target.startWork,
        endWork: target.endWork,
        whatsappId: target.whatsappId,
        allTicket: target.allTicket,
      }, {
        name: input.name,
        email: input.email,
        profile: changes.profile ? input.profile : undefined,
        super: changes.super ? input.super : undefined,
        queueIds: queueIds,
        supervisedQueueIds: changes.supervised ? supervised : undefined,
        startWork: changes.workHours ? input.startWork : undefined,
        endWork: changes.workHours ? input.endWork : undefined,
        whatsappId: changes.whatsapp ? input.whatsappId : undefined,
        allTicket: changes.allTicket ? input.allTicket : undefined,
      });
      if (passwordChanged) {
        diff.before.password = "***";
        diff.after.password = "***";
      }
      if (Object.keys(diff.after).length > 0) {
        await recordAudit(trx, now, {
          companyId,
          actor: actorOf(auth),
          action: "user.updated",
          entity: "user",
          entityId: id,
          ...diff,
        });
      }
    });
  } catch (error) {
    if (isUniqueViolation(error, "users.email")) throw duplicatedEmail();
    throw error;
  }
  const user = await viewOf(deps, companyId, id);
  updateUserMembers(deps.hub, companyId, id, {
    profile: changes.profile ? user.profile : undefined,
    queueIds: queueIds,
    allTicket: changes.allTicket ? user.allTicket === "enable" : undefined,
  });
  deps.events.emit("list.changed", {
    companyId,
    resource: "user",
    change: { action: "update", record: user },
  });
  if (endReason) {
    deps.events.emit("user.sessionsEnded", { companyId, userId: id, reason: endReason });
    disconnectUser(deps.hub, companyId, id, endReason);
  }
  return { user, sessionEnded: endReason !== undefined && self };
}

/**
 * Deletes a user (admins). Nobody deletes themselves; only super users delete super users.
 * The user's pending and open tickets go back to pending with no user, and their lists hear it.
 */
export async function deleteUser(deps: AppDeps, auth: AuthInfo, id: number) {
  const companyId = auth.companyId;
  assertRecord(
    auth,
    userAccessNeeds(auth, { id }, "user:delete"),
    "Você não pode excluir o seu próprio usuário",
  );
  const now = deps.clock.now().toISOString();
  const released = await deps.db.transaction().execute(async (trx) => {
    const target = await repo.findUser(trx, companyId, id);
    if (!target) throw notFound("ERR_NO_USER_FOUND", "Usuário não encontrado");
    if (target.super === 1) {
      assertAllowed(auth, "user:manage-super", "Somente super usuários excluem este usuário");
    }
    const released = await repo.releaseUserTickets(trx, companyId, id, now);
    await repo.deleteUserRow(trx, companyId, id);
    await recordAudit(trx, now, {
      companyId,
      actor: actorOf(auth),
      action: "user.deleted",
      entity: "user",
      entityId: id,
      before: { name: target.name, email: target.email, profile: target.profile },
    });
    // Each released ticket's event noted with the deletion (server/events/outgoing.ts).
    return { released, notes: await noteReleased(trx, companyId, released, now) };
  });
  const { notes } = released;
  const ticketViews = await loadTicketViews(
    deps.db,
    companyId,
    released.released.map((t) => t.id),
  );
  const before = new Map(released.released.map((t) => [t.id, t]));
  for (const view of ticketViews) {
    const was = before.get(view.id);
    deps.events.emit(ticketChange(view, was), {
      ticket: view,
      before: was,
      outgoing: notes.get(view.id),
    });
  }
  deps.events.emit("list.changed", {
    companyId,
    resource: "user",
    change: { action: "delete", id },
  });
  disconnectUser(deps.hub, companyId, id, "user deleted");
}
