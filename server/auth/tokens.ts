import { errors as joseErrors, jwtVerify, SignJWT } from "jose";
import { AppError } from "../errors.ts";

/**
 * What a token names: its user and company, the user's token version and the random public id
 * of the session it was issued for (`sid`), which every request checks (issue 19).
 */
export type AccessClaims = {
  userId: number;
  companyId: number;
  tokenVersion: number;
  sessionId: string;
};
export type RefreshClaims = AccessClaims & { jti: string };

/** One signer for both tokens: a refresh token is an access token's claims plus its `jti`. */
async function signToken(
  claims: AccessClaims & { jti?: string },
  secret: Uint8Array,
  ttlSeconds: number,
  now: Date,
): Promise<string> {
  const iat = Math.floor(now.getTime() / 1000);
  const jwt = new SignJWT({ cid: claims.companyId, tv: claims.tokenVersion, sid: claims.sessionId })
    .setProtectedHeader({ alg: "HS256" })
    .setSubject(String(claims.userId));
  if (claims.jti) jwt.setJti(claims.jti);
  return await jwt.setIssuedAt(iat).setExpirationTime(iat + ttlSeconds).sign(secret);
}

export function signAccessToken(
  claims: AccessClaims,
  secret: Uint8Array,
  ttlSeconds: number,
  now: Date,
): Promise<string> {
  // Only the access claims: a RefreshClaims passed here must not leak its jti into the token.
  const { userId, companyId, tokenVersion, sessionId } = claims;
  return signToken({ userId, companyId, tokenVersion, sessionId }, secret, ttlSeconds, now);
}

export function signRefreshToken(
  claims: RefreshClaims,
  secret: Uint8Array,
  ttlSeconds: number,
  now: Date,
): Promise<string> {
  return signToken(claims, secret, ttlSeconds, now);
}

function claimsOf(payload: Record<string, unknown>): AccessClaims | null {
  const userId = Number(payload.sub);
  const companyId = Number(payload.cid);
  const tokenVersion = Number(payload.tv);
  const sessionId = payload.sid;
  if (
    !Number.isInteger(userId) || !Number.isInteger(companyId) ||
    !Number.isInteger(tokenVersion) || typeof sessionId !== "string" || sessionId === ""
  ) {
    return null;
  }
  return { userId, companyId, tokenVersion, sessionId };
}

/**
 * The secret as a WebCrypto key, imported once per secret: jose imports a raw secret again on
 * every verify, a third of a request's token check (issue 33). Keyed by the secret's bytes object
 * (the config's, alive for the process); a new secret is a new key.
 */
const verifyKeys = new WeakMap<Uint8Array, Promise<CryptoKey>>();

function verifyKey(secret: Uint8Array): Promise<CryptoKey> {
  let key = verifyKeys.get(secret);
  if (!key) {
    key = crypto.subtle.importKey(
      "raw",
      secret as Uint8Array<ArrayBuffer>,
      { name: "HMAC", hash: "SHA-256" },
      false,
      ["verify"],
    );
    verifyKeys.set(secret, key);
  }
  return key;
}

/**
 * Access tokens whose signature this process has checked, with their claims and expiry, per
 * secret (issue 49): a page sends one token with every request, and WebCrypto's HMAC check (an
 * asynchronous operation on another thread) was a fifth of a conversation's read. A token's
 * signature and claims never change; its expiry is checked on every use, and the session it
 * names is still read from the database on every request (server/auth/middleware.ts). Bounded:
 * past VERIFIED_KEPT tokens the oldest go first.
 */
const verified = new WeakMap<Uint8Array, Map<string, { claims: AccessClaims; exp: number }>>();
const VERIFIED_KEPT = 2_000;

function verifiedOf(secret: Uint8Array) {
  let map = verified.get(secret);
  if (!map) verified.set(secret, map = new Map());
  return map;
}

function remember(secret: Uint8Array, token: string, entry: { claims: AccessClaims; exp: number }) {
  const map = verifiedOf(secret);
  if (map.size >= VERIFIED_KEPT) map.delete(map.keys().next().value!);
  map.set(token, entry);
}

/**
 * Verifies an access token. An expired one answers 403 ERR_SESSION_EXPIRED, which the client
 * takes as "refresh once and retry" (seeds/000 section 4 'Session'); anything else is 401.
 */
export async function verifyAccessToken(
  token: string,
  secret: Uint8Array,
  now: Date,
): Promise<AccessClaims> {
  const known = verifiedOf(secret).get(token);
  if (known) {
    // jose's rule (no clock tolerance): expired once `exp` is not after now, in whole seconds.
    if (known.exp <= Math.floor(now.getTime() / 1000)) {
      throw new AppError(403, "ERR_SESSION_EXPIRED", "Session expired");
    }
    return known.claims;
  }
  try {
    const { payload } = await jwtVerify(token, await verifyKey(secret), {
      algorithms: ["HS256"],
      currentDate: now,
    });
    const claims = claimsOf(payload);
    if (!claims) throw new AppError(401, "ERR_UNAUTHORIZED", "Invalid token");
    if (typeof payload.exp === "number") remember(secret, token, { claims, exp: payload.exp });
    return claims;
  } catch (error) {
    if (error instanceof AppError) throw error;
    if (error instanceof joseErrors.JWTExpired) {
      throw new AppError(403, "ERR_SESSION_EXPIRED", "Session expired");
    }
    throw new AppError(401, "ERR_UNAUTHORIZED", "Invalid token");
  }
}

export async function verifyRefreshToken(
  token: string,
  secret: Uint8Array,
  now: Date,
): Promise<RefreshClaims> {
  try {
    const { payload } = await jwtVerify(token, await verifyKey(secret), {
      algorithms: ["HS256"],
      currentDate: now,
    });
    const claims = claimsOf(payload);
    if (!claims || typeof payload.jti !== "string") throw new Error("bad claims");
    return { ...claims, jti: payload.jti };
  } catch {
    throw new AppError(401, "ERR_SESSION_EXPIRED", "Session expired");
  }
}
