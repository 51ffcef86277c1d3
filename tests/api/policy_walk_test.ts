import assert from "node:assert/strict";
import { POLICY_GATES } from "../../server/auth/middleware.ts";
import { type Action, allows, POLICY, type Role, SERVICE_DECIDES } from "../../contract/policy.ts";
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  createCompany,
  createUser,
  login,
  withApp,
} from "../helpers/app.ts";

/**
 * Issue 36, item 4: who may call each /api route is a line of the policy table
 * (contract/policy.ts), declared on the route with `allow(action)`. This walks the app's route
 * table (as plan_gates_test.ts does for plan flags): every /api route declares at least one action
 * or is on PUBLIC with its reason; a plain user, a company admin, a super user without the admin
 * profile and the platform's root user each get 403 ERR_NO_PERMISSION exactly when the declared
 * actions leave their roles out, or when an action's final decision is the service's
 * (SERVICE_DECIDES) and the caller holds none of its named line's roles: none of these callers
 * holds the record that would let them in (a supervised queue), so the service refuses them.
 */

/** Would the table, or the service deciding for it with no record for this caller, refuse? */
function refuses(roles: Role[], actions: Action[]): boolean {
  return actions.some((action) =>
    !allows(roles, action) ||
    (Object.hasOwn(SERVICE_DECIDES, action) &&
      !allows(roles, SERVICE_DECIDES[action as keyof typeof SERVICE_DECIDES]))
  );
}

/** Routes that no user's role decides, and why. */
const PUBLIC: Record<string, string> = {
  "POST /api/auth/login": "signing in",
  "POST /api/auth/login/2fa":
    "signing in, second step: the challenge and the code are the credential",
  "POST /api/auth/refresh_token": "the refresh cookie is the credential",
  "POST /api/companies/cadastro": "the signup page (rate-limited per address)",
  "GET /api/plans/list": "the signup page lists the plans",
  "POST /api/forgetpassword/:email": "password recovery, before signing in",
  "POST /api/resetpasswords/:email/:token/:password":
    "password recovery: the code is the credential",
  "POST /api/resetpasswords":
    "password recovery (the code in a JSON body): the code is the credential",
  "POST /api/messages/send": "a connection's API token, not a user (server/external_api/auth.ts)",
  "POST /api/billing/:provider{[a-z]+}/webhook": "the payment provider, checked by its signature",
  "GET /api/version": "the running version, for the operator and monitors",
  "GET /api/whatsapp-cloud/:key": "Meta's webhook handshake, checked by the verify token",
  "POST /api/whatsapp-cloud/:key": "Meta's webhook posts, checked by their signature",
  "GET /api/openapi.json": "the API's public description (/api-docs)",
};

type Handler = Parameters<typeof POLICY_GATES.get>[0];

/** "METHOD path" of every /api route -> the actions of the gates in force when its handler runs. */
function declaredActions(routes: { method: string; path: string; handler: unknown }[]) {
  // app.use("*", ..., allow(x)) of a sub-app: every route under its prefix registered after it.
  const prefixGates: { prefix: string; action: Action }[] = [];
  const routeGates = new Map<string, Action[]>();
  const declared = new Map<string, Action[]>();
  for (const route of routes) {
    const action = POLICY_GATES.get(route.handler as Handler);
    if (route.method === "ALL") {
      if (action) prefixGates.push({ prefix: route.path.replace(/\/?\*$/, ""), action });
      continue;
    }
    if (!route.path.startsWith("/api/")) continue;
    const key = `${route.method} ${route.path}`;
    if (action) {
      routeGates.set(key, [...routeGates.get(key) ?? [], action]);
      continue;
    }
    const fromPrefix = prefixGates.filter(({ prefix }) =>
      route.path === prefix || route.path.startsWith(`${prefix}/`)
    ).map((g) => g.action);
    declared.set(key, [...fromPrefix, ...routeGates.get(key) ?? []]);
  }
  return declared;
}

Deno.test("policy - every /api route declares its action; each role is refused exactly where the table says", () =>
  withApp(async (t) => {
    const a = await createCompany(t, "Alpha");
    const platformSuper = await createUser(t, a.id, {
      name: "Super sem perfil admin",
      email: "super-user@alpha.test",
      profile: "user",
    });
    await t.deps.db.updateTable("users").set({ super: 1 }).where("companyId", "=", a.id)
      .where("id", "=", platformSuper.id).execute();
    const root = await login(t, ADMIN_EMAIL, ADMIN_PASSWORD);
    const callers: { name: string; roles: Role[]; token: string }[] = [
      { name: "user", roles: ["user"], token: a.user.token },
      { name: "admin", roles: ["admin"], token: a.admin.token },
      { name: "super", roles: ["user", "super"], token: platformSuper.token },
      { name: "root", roles: ["admin", "super"], token: root.token },
    ];

    const declared = declaredActions(t.app.routes);
    const undeclared = [...declared].filter(([key, actions]) =>
      actions.length === 0 && !PUBLIC[key]
    )
      .map(([key]) => key);
    assert.deepEqual(undeclared, [], "routes with no allow(action) and not on PUBLIC");
    for (const key of Object.keys(PUBLIC)) {
      assert.ok(declared.has(key), `PUBLIC lists ${key}, which is no route`);
      assert.deepEqual(declared.get(key), [], `${key} is on PUBLIC but declares an action`);
    }
    // The walk is not vacuous: the table's lines are on the routes they name.
    assert.deepEqual(declared.get("DELETE /api/tickets/:id{[0-9]+}"), [
      "ticket:work",
      "ticket:delete",
    ]);
    assert.deepEqual(declared.get("POST /api/plans"), ["plan:manage"]);
    assert.deepEqual(declared.get("GET /api/dashboard"), ["dashboard:read"]);
    assert.deepEqual(declared.get("GET /api/dashboard/ticketsDay"), ["report:read"]);
    assert.deepEqual(declared.get("GET /api/reports/summary"), ["report:read"]);
    // A plain user passes the gate of the reports and is refused by their service.
    assert.equal(allows(["user"], "report:read"), true);
    assert.equal(refuses(["user"], ["report:read"]), true);
    assert.equal(refuses(["user", "super"], ["report:read"]), false);
    for (const actions of declared.values()) {
      for (const action of actions) assert.ok(Object.hasOwn(POLICY, action), action);
    }

    // Ids no record has: an allowed caller meets a 404 or a 400, never a change to the data.
    const concrete = (path: string) => path.replace(/:[A-Za-z]+(\{[^}]*\})?/g, "999999");
    // Logging out ends the caller's session: last.
    const walk = [...declared].filter(([key]) => !PUBLIC[key])
      .sort(([x], [y]) => Number(x.endsWith("/logout")) - Number(y.endsWith("/logout")));
    let refusals = 0;
    for (const [key, actions] of walk) {
      const [method, path] = key.split(" ");
      const body = method === "GET" ? undefined : {};
      for (const caller of callers) {
        const refused = refuses(caller.roles, actions);
        const res = await t.request(method, concrete(path), { token: caller.token, body });
        const text = await res.text();
        const label = `${key} as ${caller.name} (${actions.join(", ")})`;
        if (refused) {
          refusals++;
          assert.equal(res.status, 403, `${label}: ${text}`);
          assert.deepEqual(JSON.parse(text), {
            error: "ERR_NO_PERMISSION",
            message: "Acesso não permitido",
          }, label);
        } else {
          assert.ok(
            !(res.status === 403 && text.includes("ERR_NO_PERMISSION")),
            `${label} allowed by the table, refused: ${text}`,
          );
          assert.notEqual(res.status, 401, `${label}: ${text}`);
        }
      }
    }
    assert.ok(refusals > 100, `only ${refusals} refusals: the walk reached few gated routes`);
  }));

Deno.test("policy - the seeds' named actions read the table's lines", async () => {
  const { SEED_ACTIONS, rolesFor } = await import("../../contract/policy.ts");
  for (const [seed, action] of Object.entries(SEED_ACTIONS)) {
    assert.deepEqual(rolesFor(seed as keyof typeof SEED_ACTIONS), POLICY[action], seed);
  }
  // seeds/000 section 6: users have none of them, the admin profile has all of them.
  for (const seed of Object.keys(SEED_ACTIONS) as (keyof typeof SEED_ACTIONS)[]) {
    assert.equal(allows(["user"], seed), false, seed);
    assert.equal(allows(["admin"], seed), true, seed);
  }
  // Any other action is not shown (section 6: "Permission rules for any action not listed").
  assert.equal(allows(["admin", "super"], "nothing:listed" as Action), false);
});
