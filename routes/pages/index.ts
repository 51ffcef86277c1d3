import { Hono } from "hono";
import { compress } from "hono/compress";
import type { AppDeps, AppEnv } from "../../server/context.ts";
import { isLanguage } from "../../islands/lib/i18n.ts";
import ContactsPage from "../../islands/ContactsPage.tsx";
import DashboardPage from "../../islands/DashboardPage.tsx";
import LoginPage from "../../islands/LoginPage.tsx";
import ResetPasswordPage from "../../islands/ResetPasswordPage.tsx";
import NotFoundPage from "../../islands/NotFoundPage.tsx";
import TodoPage from "../../islands/TodoPage.tsx";
import UsersPage from "../../islands/UsersPage.tsx";
import ConnectionsPage from "../../islands/ConnectionsPage.tsx";
import SimulatorPage from "../../islands/SimulatorPage.tsx";
import TicketsPage from "../../islands/TicketsPage.tsx";
import QueuesPage from "../../islands/QueuesPage.tsx";
import SettingsPage from "../../islands/SettingsPage.tsx";
import { serveStatic } from "./assets.ts";
import { LOCALES } from "./i18n.ts";
import { renderPage } from "./render.tsx";

/**
 * Server-rendered pages (one line per route: `renderPage` with the island that makes the page),
 * static files and the locale files. Unknown page paths get the 404 page (see notFoundPage).
 */
export function pageRoutes(_deps: AppDeps) {
  const pages = new Hono<AppEnv>();
  pages.get("/healthz", (c) => c.json({ ok: true }));
  pages.use("*", compress());

  pages.get("/static/*", async (c) => (await serveStatic(c)) ?? notFoundPage(c));
  pages.get("/locales/:file", (c) => {
    const lng = c.req.param("file").replace(/\.json$/, "");
    if (!isLanguage(lng)) return notFoundPage(c);
    return c.json(LOCALES[lng], 200, { "cache-control": "public, max-age=300" });
  });

  pages.get("/login", (c) =>
    renderPage(c, {
      island: "LoginPage",
      component: LoginPage,
      props: {},
      title: "login.title",
      access: "public",
    }));
  // The recovery mail's link (issue 17); anything that cannot be a token is dropped.
  pages.get("/resetpassword", (c) => {
    const token = c.req.query("token");
    const email = c.req.query("email");
    return renderPage(c, {
      island: "ResetPasswordPage",
      component: ResetPasswordPage,
      props: {
        email: email && email.length <= 254 ? email : undefined,
        token: token && /^[A-Za-z0-9_-]{20,100}$/.test(token) ? token : undefined,
      },
      title: "resetPassword.title",
      access: "any",
    });
  });
  pages.get("/", (c) =>
    renderPage(c, {
      island: "DashboardPage",
      component: DashboardPage,
      props: {},
      title: "dashboard.title",
    }));
  pages.get("/contacts", (c) =>
    renderPage(c, {
      island: "ContactsPage",
      component: ContactsPage,
      props: {},
      title: "contacts.title",
    }));
  pages.get(
    "/users",
    (c) =>
      renderPage(c, { island: "UsersPage", component: UsersPage, props: {}, title: "users.title" }),
  );
  pages.get(
    "/todolist",
    (c) =>
      renderPage(c, { island: "TodoPage", component: TodoPage, props: {}, title: "todo.title" }),
  );
  pages.get("/connections", (c) =>
    renderPage(c, {
      island: "ConnectionsPage",
      component: ConnectionsPage,
      props: {},
      title: "connections.title",
    }));
  pages.get("/simulator", (c) =>
    renderPage(c, {
      island: "SimulatorPage",
      component: SimulatorPage,
      props: {},
      title: "simulator.title",
    }));
  pages.get("/tickets", (c) =>
    renderPage(c, {
      island: "TicketsPage",
      component: TicketsPage,
      props: { ticketId: null },
      title: "tickets.title",
    }));
  pages.get("/tickets/:ticketId", (c) =>
    renderPage(c, {
      island: "TicketsPage",
      component: TicketsPage,
      props: { ticketId: c.req.param("ticketId").slice(0, 64) },
      title: "tickets.title",
    }));
  pages.get(
    "/queues",
    (c) =>
      renderPage(c, {
        island: "QueuesPage",
        component: QueuesPage,
        props: {},
        title: "queues.title",
      }),
  );
  pages.get("/settings", (c) =>
    renderPage(c, {
      island: "SettingsPage",
      component: SettingsPage,
      props: {},
      title: "settings.title",
    }));

  return pages;
}

/** The 404 page for any path that is not an API route (server/app.ts notFound). */
export function notFoundPage(c: Parameters<typeof renderPage>[0]): Response {
  return renderPage(c, {
    island: "NotFoundPage",
    component: NotFoundPage,
    props: {},
    title: "notFound.title",
    access: "any",
    status: 404,
  });
}
