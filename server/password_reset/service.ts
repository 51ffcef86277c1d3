import { hashPassword } from "../auth/passwords.ts";
import { endUserSessions } from "../auth/service.ts";
import { randomSecret } from "../auth/secrets.ts";
import type { AppDeps } from "../context.ts";
import { AppError, notFound } from "../errors.ts";
import { log } from "../log.ts";
import { disconnectUser } from "../realtime/members.ts";
import * as users from "../users/repository.ts";
import { findAnyUser, spendResetToken, storeResetToken } from "./repository.ts";
import type { Database } from "../../db/client.ts";

async function sha256(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}

function invalidToken() {
  return new AppError(
    400,
    "ERR_INVALID_RESET_TOKEN",
    "Link de redefinição inválido ou expirado. Peça outro.",
  );
}

/**
 * POST /forgetpassword/:email. The answer is the same whether the email exists or not, and it
 * leaves before the mail is sent (the mail runs in the background), so neither the answer nor its
 * timing tells who has an account. The token is 32 random bytes; only its SHA-256 is stored.
 * Returns the background send, for tests and shutdown to wait on.
 */
export async function requestPasswordReset(deps: AppDeps, email: string): Promise<Promise<void>> {
  const mailer = deps.mailer;
  if (!mailer) {
    // 400, not 503: anyone may call this, and a 5xx would fill the error log on demand.
    throw new AppError(
      400,
      "ERR_MAIL_NOT_CONFIGURED",
      "O envio de e-mails não está configurado. Peça ao administrador para redefinir sua senha.",
    );
  }
  const user = await users.findUserByEmail(deps.db, email);
  if (!user) return Promise.resolve();
  const token = randomSecret(32);
  const now = deps.clock.now();
  const ttl = deps.config.passwordResetTtlSeconds;
  await storeResetToken(deps.db, {
    companyId: user.companyId,
    userId: user.id,
    tokenHash: await sha256(token),
    now: now.toISOString(),
    expiresAt: new Date(now.getTime() + ttl * 1000).toISOString(),
  });
  const minutes = Math.round(ttl / 60);
  const link = `${deps.config.publicUrl}/resetpassword?email=${encodeURIComponent(user.email)}` +
    `&token=${token}`;
  return mailer.send({
    to: user.email,
    subject: "Redefinição de senha",
    text: [
      `Olá, ${user.name}.`,
      "",
      `Recebemos um pedido para redefinir a sua senha. O código abaixo vale por ${minutes} minutos e uma única vez:`,
      "",
      token,
      "",
      `Para escolher a nova senha, abra: ${link}`,
      "",
      "Se não foi você quem pediu, ignore este e-mail: sua senha continua a mesma.",
    ].join("\n"),
  }).catch((error) =>
    log.error("password recovery mail failed", {
      userId: user.id,
      companyId: user.companyId,
      error,
    })
  );
}

/**
 * POST /resetpasswords/:email/:token/:password: spends the token (once, before it expires), sets
 * the password and ends every session of the user (tokens refused, sockets closed). An unknown
 * email, a wrong, spent or expired token all get the same ERR_INVALID_RESET_TOKEN.
 */
export async function resetPassword(
  deps: AppDeps,
  email: string,
  token: string,
  password: string,
): Promise<void> {
  const user = await users.findUserByEmail(deps.db, email);
  if (!user) throw invalidToken();
  const tokenHash = await sha256(token);
  await applyPassword(
    deps,
    user,
    password,
    (trx, now) =>
      spendResetToken(trx, user.companyId, user.id, tokenHash, now).then((spent) => {
        if (!spent) throw invalidToken();
      }),
  );
}

/**
 * PUT /passwords/:id, for super users when mail is not configured: any user of any company.
 * Company admins set their users' passwords with PUT /users/:id.
 */
export async function setPasswordBySuper(deps: AppDeps, userId: number, password: string) {
  const user = await findAnyUser(deps.db, userId);
  if (!user) throw notFound("ERR_NO_USER_FOUND", "Usuário não encontrado");
  await applyPassword(deps, user, password, () => Promise.resolve());
}

/** Sets the password and ends every session of the user, in one transaction with `check`. */
async function applyPassword(
  deps: AppDeps,
  user: { id: number; companyId: number },
  password: string,
  check: (trx: Database, now: string) => Promise<void>,
) {
  const now = deps.clock.now().toISOString();
  const passwordHash = await hashPassword(password, deps.config.bcryptCost);
  await deps.db.transaction().execute(async (trx) => {
    await check(trx, now);
    await trx.updateTable("users").set({ passwordHash, updatedAt: now })
      .where("companyId", "=", user.companyId).where("id", "=", user.id).execute();
    await endUserSessions(trx, user.companyId, user.id, now, "passwordChanged");
  });
  deps.events.emit("user.sessionsEnded", {
    companyId: user.companyId,
    userId: user.id,
    reason: "passwordChanged",
  });
  disconnectUser(deps.hub, user.companyId, user.id, "passwordChanged");
}
