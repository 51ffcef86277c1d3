import bcrypt from "bcryptjs";
import { passwordHashes } from "../metrics/registry.ts";

export function hashPassword(password: string, cost: number): Promise<string> {
  passwordHashes.inc({ operation: "hash" });
  return bcrypt.hash(password, cost);
}

export function verifyPassword(password: string, hash: string): Promise<boolean> {
  passwordHashes.inc({ operation: "verify" });
  return bcrypt.compare(password, hash);
}

/** A password a person can type once from the log: 16 characters from a CSPRNG. */
export function generatePassword(): string {
  const alphabet = "ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789";
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => alphabet[b % alphabet.length]).join("");
}
