import assert from "node:assert/strict";
import { createCompany, login } from "../helpers/app.ts";
import { seenToasts, storageItem, toastShown, toastWith, withBrowser } from "../helpers/browser.ts";
import { eventually } from "../helpers/eventually.ts";
import { connectSimulator, phoneSends } from "../whatsapp/helpers.ts";

/** A date-only ISO string `days` from today in the browser's (and this machine's) calendar. */
function isoDaysAhead(days: number): string {
  const d = new Date();
  d.setDate(d.getDate() + days);
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

Deno.test("shell - an admin logs in, sees the shell, switches language, theme and volume, logs out", () =>
  withBrowser(async ({ t, page, url, loginAs, pageErrors }) => {
    const c = await createCompany(t, "Alpha");
    await loginAs(page, c.admin, { expectPath: "/" });

    // Greeting with the user's and the company's names; admins see the active-until date.
    const greeting = page.getByTestId("greeting");
    await greeting.getByText("Alpha Admin").waitFor();
    assert.match(await greeting.innerText(), /Olá Alpha Admin, bem-vindo\(a\) à Alpha!/);
    const due = await t.deps.db.selectFrom("companies").select("dueDate").where("id", "=", c.id)
      .executeTakeFirstOrThrow();
    const [y, m, d] = due.dueDate!.split("-");
    assert.equal(await page.getByTestId("due-date").innerText(), `Ativo até ${d}/${m}/${y}`);

    // Menu groups by role: an admin has service, management and administration.
    assert.deepEqual(
      await page.locator("aside .nav-group").evaluateAll((els) =>
        els.map((e) => e.getAttribute("data-group"))
      ),
      ["service", "management", "administration"],
    );
    assert.equal(await page.locator('aside [data-menu="users"]').innerText(), "Usuários");
    assert.equal(
      await page.locator('aside [data-menu="dashboard"]').getAttribute("aria-current"),
      "page",
    );
    assert.equal(await page.getByRole("heading", { level: 1 }).innerText(), "Dashboard");

    // Language: Portuguese by default, English after the switch, kept after a reload.
    const tickets = page.locator('aside [data-menu="tickets"]');
    assert.equal(await tickets.innerText(), "Atendimentos");
    await page.getByTestId("language-menu").click();
    await page.getByRole("menuitemradio", { name: "English" }).click();
    await page.locator('aside [data-menu="tickets"]', { hasText: "Tickets" }).waitFor();
    assert.equal(await page.locator("html").getAttribute("lang"), "en-US");
    await page.reload();
    await page.locator('aside [data-menu="users"]', { hasText: "Users" }).waitFor();
    assert.match(
      await page.getByTestId("greeting").innerText(),
      /Hello Alpha Admin, welcome to Alpha!/,
    );

    // Theme: follows the system (light here), the toggle switches and remembers it.
    const html = page.locator("html");
    assert.equal(await html.getAttribute("data-theme"), "light");
    await page.getByTestId("theme-toggle").click();
    assert.equal(await html.getAttribute("data-theme"), "dark");
    assert.equal(await storageItem(page, "preferredTheme"), "dark");
    await page.reload();
    assert.equal(await html.getAttribute("data-theme"), "dark");

    // Volume: 0..1 in steps of 0.1, remembered.
    await page.getByTestId("volume-button").click();
    const thumb = page.getByTestId("volume-slider");
    await thumb.waitFor();
    assert.equal(await page.getByTestId("volume-value").innerText(), "100%");
    await thumb.focus();
    for (let i = 0; i < 3; i++) await page.keyboard.press("ArrowLeft");
    await page.getByTestId("volume-value").getByText("70%").waitFor();
    assert.equal(await storageItem(page, "volume"), "0.7");
    await page.keyboard.press("Escape");
    await page.reload();
    await page.getByTestId("volume-button").click();
    await page.getByTestId("volume-value").getByText("70%").waitFor();
    assert.equal(await thumb.getAttribute("aria-valuenow"), "0.7");
    await page.keyboard.press("Escape");

    // The account menu opens the user's own form with their data.
    await page.getByTestId("account-menu").click();
    await page.getByRole("menuitem", { name: "Profile" }).click();
    const dialog = page.getByRole("dialog");
    await dialog.waitFor();
    assert.equal(await dialog.locator("input[name=name]").inputValue(), "Alpha Admin");
    assert.equal(await dialog.locator("input[name=email]").inputValue(), c.admin.email);
    await page.keyboard.press("Escape");
    await dialog.waitFor({ state: "detached" });

    // Logout: back at /login, token gone, and the server refuses the old refresh cookie.
    await page.locator('aside [data-menu="logout"]').click();
    await page.waitForURL(`${url}/login`);
    await page.locator("form input[name=email]").waitFor();
    assert.equal(await storageItem(page, "token"), null);
    assert.equal(await storageItem(page, "companyId"), null);
    const revoked = await t.deps.db.selectFrom("refresh_tokens").select("id")
      .where("userId", "=", c.admin.id).where("revokedAt", "is", null).execute();
    assert.equal(revoked.length, 0);
    assert.deepEqual(pageErrors, []);
  }));

Deno.test("shell - a user sees only the service group and lands on their tickets", () =>
  withBrowser(async ({ t, page, url, loginAs, pageErrors }) => {
    const c = await createCompany(t, "Beta", {
      plan: { useKanban: 0, useSchedules: 0, useInternalChat: 0 },
    });
    await loginAs(page, c.user, { expectPath: "/tickets" });
    await page.getByTestId("greeting").getByText("Beta User").waitFor();
    assert.deepEqual(
      await page.locator("aside .nav-group").evaluateAll((els) =>
        els.map((e) => e.getAttribute("data-group"))
      ),
      ["service"],
    );
    // Plan flags switch entries off; the normal entries stay.
    assert.equal(await page.locator('aside [data-menu="contacts"]').count(), 1);
    for (const off of ["kanban", "schedules", "chats", "users", "connections", "dashboard"]) {
      assert.equal(await page.locator(`aside [data-menu="${off}"]`).count(), 0, off);
    }
    assert.equal(await page.getByTestId("due-date").count(), 0);

    // The dashboard is for admins: a user opening / is told so and sent to /tickets.
    await page.goto(`${url}/`);
    await page.waitForURL(`${url}/tickets`);
    await page.getByTestId("greeting").getByText("Beta User").waitFor();
    await toastShown(page, "Acesso não permitido");
    assert.deepEqual(pageErrors, []);
  }));

Deno.test("shell - guards: no token goes to /login, a signed-in visit to /login goes to /, unknown paths 404", () =>
  withBrowser(async ({ t, page, url, loginAs, pageErrors }) => {
    await page.goto(`${url}/`);
    await page.waitForURL(`${url}/login`);
    await page.locator("form input[name=email]").waitFor();

    const res = await page.goto(`${url}/no/such/page`);
    assert.equal(res?.status(), 404);
    await page.getByText("Página não encontrada").first().waitFor();
    assert.equal(await page.locator("aside").count(), 0);

    const c = await createCompany(t, "Gamma");
    await loginAs(page, c.admin, { expectPath: "/" });
    await page.goto(`${url}/login`);
    await page.waitForURL(`${url}/`);
    await page.getByTestId("greeting").getByText("Gamma Admin").waitFor();

    // Signed in, an unknown path keeps the shell around the 404.
    await page.goto(`${url}/no/such/page`);
    await page.getByTestId("not-found").waitFor();
    await page.locator("aside .nav-group").first().waitFor();
    assert.deepEqual(pageErrors, []);
  }));

Deno.test("shell - login shows a plain user the server's message for an expired subscription; a near due date warns, with a link to pay", () =>
  withBrowser(async ({ t, page, url, loginAs }) => {
    // The server's clock and the browser's calendar must agree on 'today' for this test.
    t.clock.set(new Date().toISOString());
    const late = await createCompany(t, "Late");
    await t.deps.db.updateTable("companies").set({ dueDate: isoDaysAhead(-3) })
      .where("id", "=", late.id).execute();
    await page.goto(`${url}/login`);
    // Its plain user (its admin may only pay: tests/e2e/billing_session_test.ts).
    await page.locator("form input[name=email]").fill(late.user.email);
    await page.locator("form input[name=password]").fill(late.user.password);
    await page.locator("form button[type=submit]:not([disabled])").click();
    const [y, m, d] = isoDaysAhead(-3).split("-");
    const error = page.getByTestId("login-error");
    await error.waitFor();
    assert.match(await error.innerText(), new RegExp(`Sua assinatura expirou em ${d}/${m}/${y}`));
    assert.equal(await storageItem(page, "token"), null);
    assert.equal(new URL(page.url()).pathname, "/login");

    const soon = await createCompany(t, "Soon", { dueDate: isoDaysAhead(3) });
    await loginAs(page, soon.admin, { expectPath: "/" });
    const warning = page.getByTestId("subscription-warning");
    await warning.waitFor();
    // Never paid: still the trial (issue 50 item 2 says which).
    await warning.getByText("Seu período de teste termina em 3 dias.").waitFor();
    const pay = warning.getByRole("link", { name: "Pagar agora" });
    assert.equal(await pay.getAttribute("href"), "/financeiro");
    assert.equal(await storageItem(page, "companyDueDate"), isoDaysAhead(3));
  }));

Deno.test("shell - a login of the same user elsewhere ends this session with a message", () =>
  withBrowser(async ({ t, page, url, loginAs }) => {
    const c = await createCompany(t, "Delta");
    // The page's API requests in flight: one the server answers after the other login is refused
    // (the session ended), and the api client's own way to /login would beat the message.
    let inFlight = 0;
    const api = (r: { url(): string }) => new URL(r.url()).pathname.startsWith("/api/");
    page.on("request", (r) => api(r) && inFlight++);
    page.on("requestfinished", (r) => api(r) && inFlight--);
    page.on("requestfailed", (r) => api(r) && inFlight--);
    // What /tickets reads once the user is known: its open and pending lists, and the bells'.
    const read = ["status=open", "status=pending", "withUnreadMessages"].map((query) =>
      page.waitForResponse((r) => api(r) && r.url().includes(query))
    );
    await loginAs(page, c.user);
    await page.getByTestId("greeting").getByText("Delta User").waitFor();
    // Wait until this page's socket is in the user's room before the other login, and the page and
    // its bells (loaded after the page, issue 33) have read their lists, nothing else on its way.
    await page.waitForFunction(() => document.documentElement.dataset.socket === "ready");
    await Promise.all(read);
    await eventually(() => inFlight === 0, { what: "the page's requests answered" });

    // The same user signs in somewhere else (the real login route, which announces it).
    const other = await login(t, c.user.email, c.user.password);

    await page.waitForURL(`${url}/login`);
    assert.ok((await seenToasts(page)).includes("Sua conta foi acessada em outro computador."));
    assert.equal(await storageItem(page, "token"), null);
    // The other session is the live one.
    const me = await t.request("GET", "/api/auth/me", { token: other.token });
    assert.equal(me.status, 200);
  }));

Deno.test("shell - the connections entry raises its alert from the connections' states", () =>
  withBrowser(async ({ t, page, loginAs }) => {
    const c = await createCompany(t, "Echo");
    // A disconnected connection at load: the alert shows (after its 2 s delay).
    const stamp = t.clock.now().toISOString();
    const row = await t.deps.db.insertInto("whatsapps").values({
      companyId: c.id,
      name: "Vendas",
      status: "DISCONNECTED",
      createdAt: stamp,
      updatedAt: stamp,
    }).returning("id").executeTakeFirstOrThrow();
    await loginAs(page, c.admin, { expectPath: "/" });
    const alert = page.getByTestId("connections-alert");
    await alert.waitFor();
    // Events reach the page once its socket is ready (published before, they are lost).
    await page.waitForFunction(() => document.documentElement.dataset.socket === "ready");
    t.deps.hub.publish(c.id, "whatsapp", { action: "delete", whatsappId: row.id });
    await alert.waitFor({ state: "detached" });
    // Kept in step by the whatsappSession and whatsapp events.
    t.deps.hub.publish(c.id, "whatsappSession", {
      action: "update",
      session: { id: 1, name: "Vendas", status: "qrcode" },
    }, [{ kind: "admins" }]);
    await alert.waitFor();
    t.deps.hub.publish(c.id, "whatsappSession", {
      action: "update",
      session: { id: 1, name: "Vendas", status: "CONNECTED" },
    }, [{ kind: "admins" }]);
    await alert.waitFor({ state: "detached" });
  }));

Deno.test("shell - an expired access token is refreshed once and the request retried; a dead session goes to /login", () =>
  withBrowser(async ({ t, page, url, loginAs }) => {
    const c = await createCompany(t, "Foxtrot");
    await loginAs(page, c.admin, { expectPath: "/" });
    const first = await storageItem(page, "token");

    // Past the access token's lifetime (server clock): /auth/me answers 403, the client refreshes.
    t.clock.advance((t.config.accessTokenTtlSeconds + 60) * 1000);
    const refreshed = page.waitForResponse((r) =>
      r.url().endsWith("/api/auth/refresh_token") && r.status() === 200
    );
    await page.reload();
    await refreshed;
    await page.getByTestId("greeting").getByText("Foxtrot Admin").waitFor();
    const second = await storageItem(page, "token");
    assert.notEqual(second, null);
    assert.notEqual(second, first);

    // Every session of the user ended on the server: the next 401 clears the token and company.
    await t.deps.db.updateTable("users").set({ tokenVersion: 99 }).where("id", "=", c.admin.id)
      .execute();
    await page.reload();
    await page.waitForURL(`${url}/login`);
    assert.equal(await storageItem(page, "token"), null);
    assert.equal(await storageItem(page, "companyId"), null);
  }));

Deno.test("shell - under 600 px the menu is a temporary drawer with the preferences; the theme follows the system", () =>
  withBrowser(async ({ t, page, loginAs }) => {
    const c = await createCompany(t, "Golf");
    await loginAs(page, c.admin, { expectPath: "/" });
    assert.equal(await page.locator("aside.drawer").isVisible(), false);
    await page.getByRole("button", { name: "Abrir menu" }).click();
    const sheet = page.getByRole("dialog");
    await sheet.locator('[data-menu="users"]').waitFor();
    // No stored choice: the theme follows the system's (dark here); the toggle overrides it.
    assert.equal(await page.locator("html").getAttribute("data-theme"), "dark");
    assert.equal(await storageItem(page, "preferredTheme"), null);
    await sheet.getByTestId("theme-toggle").click();
    assert.equal(await page.locator("html").getAttribute("data-theme"), "light");
    assert.equal(await storageItem(page, "preferredTheme"), "light");
    await page.keyboard.press("Escape");
    await sheet.waitFor({ state: "detached" });
  }, { viewport: { width: 390, height: 780 }, colorScheme: "dark" }));

Deno.test("shell - the realtime connection comes back after the server drops it; its URL carries no token", () =>
  withBrowser(async ({ t, page, loginAs }) => {
    const c = await createCompany(t, "Hotel");
    const socketUrls: string[] = [];
    page.on("websocket", (ws) => socketUrls.push(ws.url()));
    await loginAs(page, c.admin, { expectPath: "/" });
    const ready = () => document.documentElement.dataset.socket === "ready";
    await page.waitForFunction(ready);
    t.deps.hub.closeAll();
    await page.waitForFunction(() => document.documentElement.dataset.socket !== "ready");
    await page.waitForFunction(ready);
    // The token went in the first message: request lines (and proxy logs) never see it.
    assert.ok(socketUrls.length >= 2, socketUrls.join(" "));
    for (const socketUrl of socketUrls) assert.equal(new URL(socketUrl).search, "");
    // Rooms are joined again: an event for the admins arrives.
    t.deps.hub.publish(c.id, "whatsapp", {
      action: "update",
      whatsapp: { id: 7, name: "Suporte", status: "TIMEOUT" },
    }, [{ kind: "admins" }]);
    await page.getByTestId("connections-alert").waitFor();
  }));

Deno.test("shell - the profile dialog saves the user's own name; a new password signs in again", () =>
  withBrowser(async ({ t, page, url, loginAs }) => {
    const c = await createCompany(t, "India");
    await loginAs(page, c.user);
    const openProfile = async () => {
      await page.getByTestId("account-menu").click();
      await page.getByRole("menuitem", { name: "Perfil" }).click();
      return page.getByRole("dialog");
    };
    let dialog = await openProfile();
    await dialog.locator("input[name=name]").fill("India Renamed");
    await dialog.getByRole("button", { name: "Salvar" }).click();
    await toastWith(page, "Usuário salvo com sucesso.").waitFor();
    await page.getByTestId("greeting").getByText("India Renamed").waitFor();
    const row = await t.deps.db.selectFrom("users").select("name").where("id", "=", c.user.id)
      .executeTakeFirstOrThrow();
    assert.equal(row.name, "India Renamed");

    // Too short a password is refused in the form, without a request.
    dialog = await openProfile();
    await dialog.locator("input[name=password]").fill("abc");
    await dialog.getByRole("button", { name: "Salvar" }).click();
    // The profile form checks the same rules as the users form (contract/validation.ts).
    await dialog.getByText("Muito curto!").waitFor();

    await dialog.locator("input[name=password]").fill("new-secret-1");
    await dialog.getByRole("button", { name: "Salvar" }).click();
    await page.waitForURL(`${url}/login`);
    assert.equal(await storageItem(page, "token"), null);
    await loginAs(page, { email: c.user.email, password: "new-secret-1" });
    await page.getByTestId("greeting").getByText("India Renamed").waitFor();
  }));

Deno.test("shell - the tickets bell counts tickets with unread messages, live from the pipeline", () =>
  withBrowser(async ({ t, page, loginAs }) => {
    const c = await createCompany(t, "Juliet");
    const wid = await connectSimulator(t, c);
    await loginAs(page, c.admin, { expectPath: "/" });
    await page.waitForFunction(() => document.documentElement.dataset.socket === "ready");
    const bell = page.getByTestId("bell-tickets");
    assert.equal(await bell.locator(".badge").count(), 0);

    // A contact writes in: a new ticket with an unread message; the bell updates without reload.
    const sent = await phoneSends(t, c.user.token, wid, {
      from: "5511988887777",
      name: "Maria Cliente",
      body: "Olá, preciso de ajuda",
      id: "WAMSG-BELL-1",
    });
    assert.equal(sent.status, 201);
    await bell.locator(".badge", { hasText: "1" }).waitFor();
    await bell.click();
    const item = page.locator(".popover-item", { hasText: "Maria Cliente" });
    await item.waitFor();
    const ticket = await t.deps.db.selectFrom("tickets").select("uuid").where(
      "id",
      "=",
      sent.ticketId!,
    )
      .executeTakeFirstOrThrow();
    assert.equal(await item.getAttribute("href"), `/tickets/${ticket.uuid}`);
  }));
