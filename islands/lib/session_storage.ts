import type { LoginAnswer, SessionUser } from "../../contract/types.ts";
import { rolesOf } from "../../contract/roles.ts";
import { removeStorage, STORAGE, writeStorage } from "./storage.ts";

/** Whether the company enabled campaigns (setting campaignsEnabled), the rule behind cshow. */
export function campaignsEnabled(user: SessionUser): boolean {
  return user.company.settings.some((s) => s.key === "campaignsEnabled" && s.value === "true");
}

/** Stores what the browser keeps of a session (seeds/000 section 3 'Held in browser storage'). */
export function rememberSession(answer: LoginAnswer) {
  writeStorage(STORAGE.token, answer.token);
  writeStorage(STORAGE.tokenReceivedAt, String(Date.now()));
  rememberUser(answer.user);
}

/** Keeps the stored company data in step with the user as the server last described it. */
export function rememberUser(user: SessionUser) {
  writeStorage(STORAGE.companyId, String(user.companyId));
  writeStorage(STORAGE.userId, String(user.id));
  writeStorage(STORAGE.roles, rolesOf({ profile: user.profile, super: user.super }).join(" "));
  if (user.company.dueDate) writeStorage(STORAGE.companyDueDate, user.company.dueDate);
  else removeStorage(STORAGE.companyDueDate);
  // seeds/002 section 2.1: the campaign routes exist only while the flag cshow is stored.
  if (campaignsEnabled(user)) writeStorage(STORAGE.cshow, "1");
  else removeStorage(STORAGE.cshow);
}
