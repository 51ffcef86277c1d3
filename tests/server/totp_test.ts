import assert from "node:assert/strict";
import { Secret } from "otpauth";
import { matchTotp, newTotpSecret, otpauthUrl, totpCode } from "../../server/auth/totp.ts";

// RFC 6238 appendix B: the seeds are ASCII "1234567890" repeated to the hash's key length, the
// codes 8 digits, 30-second steps.
const SEEDS = {
  SHA1: "12345678901234567890",
  SHA256: "12345678901234567890123456789012",
  SHA512: "1234567890123456789012345678901234567890123456789012345678901234",
} as const;
const VECTORS: [number, Record<keyof typeof SEEDS, string>][] = [
  [59, { SHA1: "94287082", SHA256: "46119246", SHA512: "90693936" }],
  [1111111109, { SHA1: "07081804", SHA256: "68084774", SHA512: "25091201" }],
  [1111111111, { SHA1: "14050471", SHA256: "67062674", SHA512: "99943326" }],
  [1234567890, { SHA1: "89005924", SHA256: "91819424", SHA512: "93441116" }],
  [2000000000, { SHA1: "69279037", SHA256: "90698825", SHA512: "38618901" }],
  [20000000000, { SHA1: "65353130", SHA256: "77737706", SHA512: "47863826" }],
];

Deno.test("totp - RFC 6238 appendix B vectors (SHA1, SHA256, SHA512, 8 digits)", () => {
  for (const [seconds, codes] of VECTORS) {
    for (const algorithm of ["SHA1", "SHA256", "SHA512"] as const) {
      const code = totpCode(Secret.fromLatin1(SEEDS[algorithm]), new Date(seconds * 1000), {
        algorithm,
        digits: 8,
      });
      assert.equal(code, codes[algorithm], `${algorithm} at ${seconds}`);
    }
  }
});

Deno.test("totp - a code matches its step and the next or previous one, not further", () => {
  const secret = newTotpSecret();
  const at = new Date("2026-11-22T12:00:10Z");
  const code = totpCode(secret, at);
  const step = Math.floor(at.getTime() / 30_000);
  assert.equal(matchTotp(secret, code, at), step);
  assert.equal(matchTotp(secret, code, new Date(at.getTime() + 30_000)), step);
  assert.equal(matchTotp(secret, code, new Date(at.getTime() - 30_000)), step);
  assert.equal(matchTotp(secret, code, new Date(at.getTime() + 60_000)), null);
  assert.equal(matchTotp(secret, "12345", at), null);
  assert.equal(matchTotp(newTotpSecret(), code, at), null);
});

Deno.test("totp - the otpauth URL names the issuer, the account and the secret", () => {
  const secret = newTotpSecret();
  const url = new URL(otpauthUrl(secret, "ana@acme.test"));
  assert.equal(url.protocol, "otpauth:");
  assert.equal(url.searchParams.get("secret"), secret);
  assert.equal(url.searchParams.get("issuer"), "Balcão");
  assert.match(decodeURIComponent(url.pathname), /ana@acme\.test/);
});
