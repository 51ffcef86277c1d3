import { Hono } from "hono";
import { compress } from "hono/compress";
import type { AppDeps, AppEnv } from "../../server/context.ts";
import { isLanguage } from "../../islands/lib/i18n.ts";
import { serveStatic } from "./assets.ts";
import { apiDocsRoutes } from "./api_docs.ts";
import { LOCALES } from "./i18n.ts";
import { healthReport } from "../../server/storage/service.ts";
import { renderPage } from "./render.ts";

/**
 * Server-rendered pages (one line per route: `renderPage` with the island that makes the page),
 * static files and the locale files. Unknown page paths get the 404 page (see notFoundPage).
 */
export function pageRoutes(deps: AppDeps) {
  const pages = new Hono<AppEnv>();
  pages.get("/healthz", async (c) => {
    const report = await healthReport(deps);
    return c.json({ ok: report.status === "ok", ...report }, report.status === "ok" ? 200 : 503);
  });
  pages.use("*", compress());
  pages.route("/api-docs", apiDocsRoutes());

  pages.get("/static/*", async (c) => (await serveStatic(c)) ?? notFoundPage(c));
  pages.get("/locales/:file", (c) => {
    const lng = c.req.param("file").replace(/\.json$/, "");
    if (!isLanguage(lng)) return notFoundPage(c);
    return c.json(LOCALES[lng], 200, { "cache-control": "public, max-age=300" });
  });

  pages.get("/login", (c) =>
    renderPage(c, {
      island: "LoginPage",
      load: () => import("../../islands/LoginPage.tsx"),
      props: { signupEnabled: deps.config.signupEnabled },
      title: "login.title",
      access: "public",
    }));
  // The recovery mail's link (issue 17); anything that cannot be a token is dropped.
  pages.get("/resetpassword", (c) => {
    const token = c.req.query("token");
    const email = c.req.query("email");
    return renderPage(c, {
      island: "ResetPasswordPage",
      load: () => import("../../islands/ResetPasswordPage.tsx"),
      props: {
        email: email && email.length <= 254 ? email : undefined,
        token: token && /^[A-Za-z0-9_-]{20,100}$/.test(token) ? token : undefined,
      },
      title: "resetPassword.title",
      access: "any",
    });
  });
  // SIGNUP_ENABLED=false: no public signup page (its API refuses too).
  pages.get("/signup", (c) =>
    !deps.config.signupEnabled ? notFoundPage(c) : renderPage(c, {
      island: "SignupPage",
      load: () => import("../../islands/SignupPage.tsx"),
      props: { companyId: c.req.query("companyId")?.slice(0, 20) ?? null },
      title: "platform.signup.title",
      access: "public",
    }));
  pages.get("/helps", (c) =>
    renderPage(c, {
      island: "HelpsPage",
      load: () => import("../../islands/HelpsPage.tsx"),
      props: {},
      title: "platform.helps.pageTitle",
    }));
  pages.get("/", (c) =>
    renderPage(c, {
      island: "DashboardPage",
      load: () => import("../../islands/DashboardPage.tsx"),
      props: {},
      title: "dashboard.title",
    }));
  pages.get("/financeiro", (c) =>
    renderPage(c, {
      island: "FinancePage",
      load: () => import("../../islands/FinancePage.tsx"),
      props: {},
      title: "billing.title",
    }));
  pages.get("/subscription", (c) =>
    renderPage(c, {
      island: "SubscriptionPage",
      load: () => import("../../islands/SubscriptionPage.tsx"),
      props: {},
      title: "billing.subscription.title",
    }));
  pages.get("/contacts", (c) =>
    renderPage(c, {
      island: "ContactsPage",
      load: () => import("../../islands/ContactsPage.tsx"),
      props: {},
      title: "contacts.title",
    }));
  pages.get(
    "/users",
    (c) =>
      renderPage(c, {
        island: "UsersPage",
        load: () => import("../../islands/UsersPage.tsx"),
        props: {},
        title: "users.title",
      }),
  );
  // A common guess at the tasks page's address (issue 25).
  pages.get("/todo", (c) => c.redirect("/todolist", 301));
  pages.get("/reports", (c) =>
    renderPage(c, {
      island: "ReportsPage",
      load: () => import("../../islands/ReportsPage.tsx"),
      props: {},
      title: "reports.title",
    }));
  pages.get(
    "/audit",
    (c) =>
      renderPage(c, {
        island: "AuditPage",
        load: () => import("../../islands/AuditPage.tsx"),
        props: {},
        title: "audit.title",
      }),
  );
  pages.get(
    "/todolist",
    (c) =>
      renderPage(c, {
        island: "TodoPage",
        load: () => import("../../islands/TodoPage.tsx"),
        props: {},
        title: "todo.title",
      }),
  );
  pages.get("/connections", (c) =>
    renderPage(c, {
      island: "ConnectionsPage",
      load: () => import("../../islands/ConnectionsPage.tsx"),
      props: {},
      title: "connections.title",
    }));
  pages.get("/simulator", (c) =>
    renderPage(c, {
      island: "SimulatorPage",
      load: () => import("../../islands/SimulatorPage.tsx"),
      props: {},
      title: "simulator.title",
    }));
  pages.get("/tickets", (c) =>
    renderPage(c, {
      island: "TicketsPage",
      load: () => import("../../islands/TicketsPage.tsx"),
      props: { ticketId: null },
      title: "tickets.title",
    }));
  pages.get("/tickets/:ticketId", (c) =>
    renderPage(c, {
      island: "TicketsPage",
      load: () => import("../../islands/TicketsPage.tsx"),
      props: { ticketId: c.req.param("ticketId").slice(0, 64) },
      title: "tickets.title",
    }));
  pages.get(
    "/queues",
    (c) =>
      renderPage(c, {
        island: "QueuesPage",
        load: () => import("../../islands/QueuesPage.tsx"),
        props: {},
        title: "queues.title",
      }),
  );
  pages.get("/queue-integration", (c) =>
    renderPage(c, {
      island: "QueueIntegrationPage",
      load: () => import("../../islands/QueueIntegrationPage.tsx"),
      props: {},
      title: "integrations.title",
    }));
  pages.get("/prompts", (c) =>
    renderPage(c, {
      island: "PromptsPage",
      load: () => import("../../islands/PromptsPage.tsx"),
      props: {},
      title: "prompts.title",
    }));
  pages.get("/settings", (c) =>
    renderPage(c, {
      island: "SettingsPage",
      load: () => import("../../islands/SettingsPage.tsx"),
      props: {},
      title: "settings.title",
    }));
  pages.get(
    "/tags",
    (c) =>
      renderPage(c, {
        island: "TagsPage",
        load: () => import("../../islands/TagsPage.tsx"),
        props: {},
        title: "tags.title",
      }),
  );
  pages.get("/quick-messages", (c) =>
    renderPage(c, {
      island: "QuickMessagesPage",
      load: () => import("../../islands/QuickMessagesPage.tsx"),
      props: {},
      title: "quickMessages.title",
    }));
  pages.get("/schedules", (c) => {
    // ?contactId=N opens the create dialog for that contact (seeds/001 section 2); digits only.
    const raw = c.req.query("contactId") ?? "";
    const contactId = /^[1-9]\d{0,15}$/.test(raw) ? Number(raw) : null;
    return renderPage(c, {
      island: "SchedulesPage",
      load: () => import("../../islands/SchedulesPage.tsx"),
      props: {
        contactId: contactId !== null && Number.isSafeInteger(contactId) ? contactId : null,
      },
      title: "schedules.title",
    });
  });
  pages.get("/kanban", (c) =>
    renderPage(c, {
      island: "KanbanPage",
      load: () => import("../../islands/KanbanPage.tsx"),
      props: {},
      title: "kanban.title",
    }));
  pages.get("/announcements", (c) =>
    renderPage(c, {
      island: "AnnouncementsPage",
      load: () => import("../../islands/AnnouncementsPage.tsx"),
      props: {},
      title: "announcements.title",
    }));
  // seeds/002 section 2.1: /chats/:id? where the id is the chat's uuid.
  pages.get("/chats/:id?", (c) =>
    renderPage(c, {
      island: "ChatsPage",
      load: () => import("../../islands/ChatsPage.tsx"),
      props: { chatUuid: c.req.param("id")?.slice(0, 64) ?? null },
      title: "chats.title",
    }));

  // seeds/002 section 2.1: the campaign routes (the menu shows them only with the cshow flag).
  pages.get("/contact-lists", (c) =>
    renderPage(c, {
      island: "ContactListsPage",
      load: () => import("../../islands/ContactListsPage.tsx"),
      props: {},
      title: "contactLists.title",
    }));
  pages.get("/contact-lists/:contactListId{[0-9]+}/contacts", (c) =>
    renderPage(c, {
      island: "ContactListItemsPage",
      load: () => import("../../islands/ContactListItemsPage.tsx"),
      props: { contactListId: Number(c.req.param("contactListId")) },
      title: "contactLists.itemsTitle",
    }));
  pages.get("/campaigns", (c) =>
    renderPage(c, {
      island: "CampaignsPage",
      load: () => import("../../islands/CampaignsPage.tsx"),
      props: {},
      title: "campaigns.title",
    }));
  pages.get("/campaign/:campaignId{[0-9]+}/report", (c) =>
    renderPage(c, {
      island: "CampaignReportPage",
      load: () => import("../../islands/CampaignReportPage.tsx"),
      props: { campaignId: Number(c.req.param("campaignId")) },
      title: "campaigns.reportTitle",
    }));
  pages.get(
    "/files",
    (c) =>
      renderPage(c, {
        island: "FilesPage",
        load: () => import("../../islands/FilesPage.tsx"),
        props: {},
        title: "files.title",
      }),
  );
  pages.get("/campaigns-config", (c) =>
    renderPage(c, {
      island: "CampaignsConfigPage",
      load: () => import("../../islands/CampaignsConfigPage.tsx"),
      props: {},
      title: "campaigns.configTitle",
    }));
  pages.get("/messages-api", (c) =>
    renderPage(c, {
      island: "MessagesApiPage",
      load: () => import("../../islands/MessagesApiPage.tsx"),
      props: {},
      title: "messagesApi.title",
    }));

  return pages;
}

/** The 404 page for any path that is not an API route (server/app.ts notFound). */
export function notFoundPage(c: Parameters<typeof renderPage>[0]): Promise<Response> {
  return renderPage(c, {
    island: "NotFoundPage",
    load: () => import("../../islands/NotFoundPage.tsx"),
    props: {},
    title: "notFound.title",
    access: "any",
    status: 404,
  });
}
