import { Secret, TOTP } from "otpauth";

/**
 * Time-based one-time passwords (RFC 6238) through the `otpauth` package: what authenticator
 * apps use (HMAC-SHA1, 6 digits, 30-second steps). A code is accepted one step either side of
 * now (clock drift between the phone and the server), and a step already used is refused, so a
 * code seen over a shoulder cannot be replayed within its window.
 */
export type TotpOptions = { algorithm?: "SHA1" | "SHA256" | "SHA512"; digits?: number };

const PERIOD_SECONDS = 30;
const ISSUER = "Balcão";

/** A new random secret (160 bits, RFC 4226's recommended length), as base32. */
export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

/** The otpauth:// URL an authenticator app reads from the QR code. */
export function otpauthUrl(secretBase32: string, account: string): string {
  return new TOTP({
    issuer: ISSUER,
    label: account,
    secret: Secret.fromBase32(secretBase32),
    period: PERIOD_SECONDS,
  }).toString();
}

/** The code of the step holding `at` (tests and the simulator of an authenticator app). */
export function totpCode(secret: Secret | string, at: Date, options: TotpOptions = {}): string {
  return TOTP.generate({
    secret: typeof secret === "string" ? Secret.fromBase32(secret) : secret,
    timestamp: at.getTime(),
    period: PERIOD_SECONDS,
    ...options,
  });
}

/** The time step a code belongs to when it is valid at `at` (±1 step), else null. */
export function matchTotp(secretBase32: string, code: string, at: Date): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const delta = TOTP.validate({
    token: code,
    secret: Secret.fromBase32(secretBase32),
    timestamp: at.getTime(),
    period: PERIOD_SECONDS,
    window: 1,
  });
  return delta === null
    ? null
    : TOTP.counter({ period: PERIOD_SECONDS, timestamp: at.getTime() }) + delta;
}
