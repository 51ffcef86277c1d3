/**
 * The roles of contract/policy.ts's table (read that file's comment): a caller holds its
 * profile ("user" or "admin", compared case-insensitively) and, with the super flag, "super" too.
 */
export type Role = "user" | "admin" | "super";

/** The caller as server and browser both know it: profile and super flag. */
export type Caller = { profile: string; super: boolean };

export function rolesOf(caller: Caller): Role[] {
  const roles: Role[] = [caller.profile.toLowerCase() === "admin" ? "admin" : "user"];
  if (caller.super) roles.push("super");
  return roles;
}

/** Where a page a role may not open sends it: every role works its tickets. */
export const PAGE_DENIED_REDIRECT = "/tickets";
