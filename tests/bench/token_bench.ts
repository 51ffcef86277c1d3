/**
 * What checking an access token costs (issue 33): jose's jwtVerify given the raw secret (it
 * imports it as a WebCrypto key on every call) against the key imported once, as
 * server/auth/tokens.ts now does. Prints the process's CPU time per verify (not wall-clock: the
 * machine may be loaded), three rounds each.
 *
 *   deno run -A tests/bench/token_bench.ts
 */
import process from "node:process";
import { jwtVerify, SignJWT } from "jose";

const ROUNDS = 20_000;
const secret = new TextEncoder().encode("x".repeat(48));
const token = await new SignJWT({ sub: "1" }).setProtectedHeader({ alg: "HS256" })
  .setIssuedAt().setExpirationTime("1h").sign(secret);
const key = await crypto.subtle.importKey(
  "raw",
  secret,
  { name: "HMAC", hash: "SHA-256" },
  false,
  ["verify"],
);

const lines: string[] = [];
for (const [name, k] of [["raw secret", secret], ["imported key", key]] as const) {
  for (let round = 0; round < 3; round++) {
    const before = process.cpuUsage();
    for (let i = 0; i < ROUNDS; i++) await jwtVerify(token, k, { algorithms: ["HS256"] });
    const used = process.cpuUsage(before);
    lines.push(
      `${name.padEnd(14)} ${((used.user + used.system) / ROUNDS).toFixed(1)} µs CPU/verify`,
    );
  }
}
const load = Deno.loadavg().map((n) => n.toFixed(1)).join(" ");
Deno.stdout.writeSync(new TextEncoder().encode(`load average ${load}\n${lines.join("\n")}\n`));
