import { Hono } from "hono";
import { compress } from "hono/compress";
import type { AppDeps, AppEnv } from "../../server/context.ts";
import { isLanguage } from "../../islands/lib/i18n.ts";
import { serveStatic } from "./assets.ts";
import { apiDocsRoutes } from "./api_docs.ts";
import { installRoutes } from "./install.ts";
import { LOCALES } from "./i18n.ts";
import { healthReport } from "../../server/storage/service.ts";
import { islandModule, renderPage } from "./render.ts";

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
  pages.route("/", installRoutes());

  pages.get("/static/*", async (c) => (await serveStatic(c)) ?? notFoundPage(c));
  pages.get("/locales/:file", (c) => {
    const lng = c.req.param("file").replace(/\.json$/, "");
    if (!isLanguage(lng)) return notFoundPage(c);
    return c.json(LOCALES[lng], 200, { "cache-control": "public, max-age=300" });
  });

  pages.get("/login", (c) =>
    renderPage(c, {
      island: "LoginPage",
      load: islandModule<typeof import("../../islands/LoginPage.tsx")>("LoginPage"),
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
      load: islandModule<typeof import("../../islands/ResetPasswordPage.tsx")>("ResetPasswordPage"),
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
      load: islandModule<typeof import("../../islands/SignupPage.tsx")>("SignupPage"),
      props: { companyId: c.req.query("companyId")?.slice(0, 20) ?? null },
      title: "platform.signup.title",
      access: "public",
    }));
  pages.get("/helps", (c) =>
    renderPage(c, {
      island: "HelpsPage",
      load: islandModule<typeof import("../../islands/HelpsPage.tsx")>("HelpsPage"),
      props: {},
      title: "platform.helps.pageTitle",
    }));
  pages.get("/", (c) =>
    renderPage(c, {
      island: "DashboardPage",
      load: islandModule<typeof import("../../islands/DashboardPage.tsx")>("DashboardPage"),
      props: {},
      title: "dashboard.title",
    }));
  pages.get("/financeiro", (c) =>
    renderPage(c, {
      island: "FinancePage",
      load: islandModule<typeof import("../../islands/FinancePage.tsx")>("FinancePage"),
      props: {},
      title: "billing.title",
    }));
  pages.get("/subscription", (c) =>
    renderPage(c, {
      island: "SubscriptionPage",
      load: islandModule<typeof import("../../islands/SubscriptionPage.tsx")>("SubscriptionPage"),
      props: {},
      title: "billing.subscription.title",
    }));
  pages.get("/contacts", (c) =>
    renderPage(c, {
      island: "ContactsPage",
      load: islandModule<typeof import("../../islands/ContactsPage.tsx")>("ContactsPage"),
      props: {},
      title: "contacts.title",
    }));
  pages.get(
    "/users",
    (c) =>
      renderPage(c, {
        island: "UsersPage",
        load: islandModule<typeof import("../../islands/UsersPage.tsx")>("UsersPage"),
        props: {},
        title: "users.title",
      }),
  );
  // A common guess at the tasks page's address (issue 25).
  pages.get("/todo", (c) => c.redirect("/todolist", 301));
  pages.get("/reports", (c) =>
    renderPage(c, {
      island: "ReportsPage",
      load: islandModule<typeof import("../../islands/ReportsPage.tsx")>("ReportsPage"),
      props: {},
      title: "reports.title",
    }));
  pages.get(
    "/audit",
    (c) =>
      renderPage(c, {
        island: "AuditPage",
        load: islandModule<typeof import("../../islands/AuditPage.tsx")>("AuditPage"),
        props: {},
        title: "audit.title",
      }),
  );
  pages.get(
    "/todolist",
    (c) =>
      renderPage(c, {
        island: "TodoPage",
        load: islandModule<typeof import("../../islands/TodoPage.tsx")>("TodoPage"),
        props: {},
        title: "todo.title",
      }),
  );
  pages.get("/connections", (c) =>
    renderPage(c, {
      island: "ConnectionsPage",
      load: islandModule<typeof import("../../islands/ConnectionsPage.tsx")>("ConnectionsPage"),
      props: {},
      title: "connections.title",
    }));
  pages.get("/simulator", (c) =>
    renderPage(c, {
      island: "SimulatorPage",
      load: islandModule<typeof import("../../islands/SimulatorPage.tsx")>("SimulatorPage"),
      props: {},
      title: "simulator.title",
    }));
  pages.get("/tickets", (c) =>
    renderPage(c, {
      island: "TicketsPage",
      load: islandModule<typeof import("../../islands/TicketsPage.tsx")>("TicketsPage"),
      props: { ticketId: null },
      title: "tickets.title",
    }));
  pages.get("/tickets/:ticketId", (c) =>
    renderPage(c, {
      island: "TicketsPage",
      load: islandModule<typeof import("../../islands/TicketsPage.tsx")>("TicketsPage"),
      props: { ticketId: c.req.param("ticketId").slice(0, 64) },
      title: "tickets.title",
    }));
  pages.get(
    "/queues",
    (c) =>
      renderPage(c, {
        island: "QueuesPage",
        load: islandModule<typeof import("../../islands/QueuesPage.tsx")>("QueuesPage"),
        props: {},
        title: "queues.title",
      }),
  );
  pages.get("/queue-integration", (c) =>
    renderPage(c, {
      island: "QueueIntegrationPage",
      load: islandModule<typeof import("../../islands/QueueIntegrationPage.tsx")>(
        "QueueIntegrationPage",
      ),
      props: {},
      title: "integrations.title",
    }));
  pages.get("/prompts", (c) =>
    renderPage(c, {
      island: "PromptsPage",
      load: islandModule<typeof import("../../islands/PromptsPage.tsx")>("PromptsPage"),
      props: {},
      title: "prompts.title",
    }));
  pages.get("/settings", (c) =>
    renderPage(c, {
      island: "SettingsPage",
      load: islandModule<typeof import("../../islands/SettingsPage.tsx")>("SettingsPage"),
      props: {},
      title: "settings.title",
    }));
  pages.get(
    "/tags",
    (c) =>
      renderPage(c, {
        island: "TagsPage",
        load: islandModule<typeof import("../../islands/TagsPage.tsx")>("TagsPage"),
        props: {},
        title: "tags.title",
      }),
  );
  pages.get("/quick-messages", (c) =>
    renderPage(c, {
      island: "QuickMessagesPage",
      load: islandModule<typeof import("../../islands/QuickMessagesPage.tsx")>("QuickMessagesPage"),
      props: {},
      title: "quickMessages.title",
    }));
  pages.get("/schedules", (c) => {
    // ?contactId=N opens the create dialog for that contact (seeds/001 section 2); digits only.
    const raw = c.req.query("contactId") ?? "";
    const contactId = /^[1-9]\d{0,15}$/.test(raw) ? Number(raw) : null;
    return renderPage(c, {
      island: "SchedulesPage",
      load: islandModule<typeof import("../../islands/SchedulesPage.tsx")>("SchedulesPage"),
      props: {
        contactId: contactId !== null && Number.isSafeInteger(contactId) ? contactId : null,
      },
      title: "schedules.title",
    });
  });
  pages.get("/kanban", (c) =>
    renderPage(c, {
      island: "KanbanPage",
      load: islandModule<typeof import("../../islands/KanbanPage.tsx")>("KanbanPage"),
      props: {},
      title: "kanban.title",
    }));
  pages.get("/announcements", (c) =>
    renderPage(c, {
      island: "AnnouncementsPage",
      load: islandModule<typeof import("../../islands/AnnouncementsPage.tsx")>("AnnouncementsPage"),
      props: {},
      title: "announcements.title",
    }));
  // seeds/002 section 2.1: /chats/:id? where the id is the chat's uuid.
  pages.get("/chats/:id?", (c) =>
    renderPage(c, {
      island: "ChatsPage",
      load: islandModule<typeof import("../../islands/ChatsPage.tsx")>("ChatsPage"),
      props: { chatUuid: c.req.param("id")?.slice(0, 64) ?? null },
      title: "chats.title",
    }));

  // seeds/002 section 2.1: the campaign routes (the menu shows them only with the cshow flag).
  pages.get("/contact-lists", (c) =>
    renderPage(c, {
      island: "ContactListsPage",
      load: islandModule<typeof import("../../islands/ContactListsPage.tsx")>("ContactListsPage"),
      props: {},
      title: "contactLists.title",
    }));
  pages.get("/contact-lists/:contactListId{[0-9]+}/contacts", (c) =>
    renderPage(c, {
      island: "ContactListItemsPage",
      load: islandModule<typeof import("../../islands/ContactListItemsPage.tsx")>(
        "ContactListItemsPage",
      ),
      props: { contactListId: Number(c.req.param("contactListId")) },
      title: "contactLists.itemsTitle",
    }));
  pages.get("/campaigns", (c) =>
    renderPage(c, {
      island: "CampaignsPage",
      load: islandModule<typeof import("../../islands/CampaignsPage.tsx")>("CampaignsPage"),
      props: {},
      title: "campaigns.title",
    }));
  pages.get("/campaign/:campaignId{[0-9]+}/report", (c) =>
    renderPage(c, {
      island: "CampaignReportPage",
      load: islandModule<typeof import("../../islands/CampaignReportPage.tsx")>(
        "CampaignReportPage",
      ),
      props: { campaignId: Number(c.req.param("campaignId")) },
      title: "campaigns.reportTitle",
    }));
  pages.get(
    "/files",
    (c) =>
      renderPage(c, {
        island: "FilesPage",
        load: islandModule<typeof import("../../islands/FilesPage.tsx")>("FilesPage"),
        props: {},
        title: "files.title",
      }),
  );
  pages.get("/campaigns-config", (c) =>
    renderPage(c, {
      island: "CampaignsConfigPage",
      load: islandModule<typeof import("../../islands/CampaignsConfigPage.tsx")>(
        "CampaignsConfigPage",
      ),
      props: {},
      title: "campaigns.configTitle",
    }));
  pages.get("/messages-api", (c) =>
    renderPage(c, {
      island: "MessagesApiPage",
      load: islandModule<typeof import("../../islands/MessagesApiPage.tsx")>("MessagesApiPage"),
      props: {},
      title: "messagesApi.title",
    }));

  return pages;
}

/** The 404 page for any path that is not an API route (server/app.ts notFound). */
export function notFoundPage(c: Parameters<typeof renderPage>[0]): Promise<Response> {
  return renderPage(c, {
    island: "NotFoundPage",
    load: islandModule<typeof import("../../islands/NotFoundPage.tsx")>("NotFoundPage"),
    props: {},
    title: "notFound.title",
    access: "any",
    status: 404,
  });
}
