import assert from "node:assert/strict";
import { createECDH, randomBytes } from "node:crypto";
import { sql } from "kysely";
import { QUEUE_COLORS } from "../../contract/palette.ts";
import {
  createCompany,
  createTestApp,
  restartTestApp,
  type TestApp,
  type TestCompany,
} from "../helpers/app.ts";
import { addContact, addMessage, addTicket, scene } from "../helpers/tickets.ts";
import { ensurePeriodInvoice } from "../../server/billing/repository.ts";

/**
 * Ids are never handed out twice (issue 19): for every kind of record, deleting the newest one
 * and creating another gives a new id, and so does a restart of the app on the same database.
 * Before migration 0050 the new record got the deleted one's id.
 */

type Scene = Awaited<ReturnType<typeof scene>> & { company: TestCompany; ticketId: number };

type Kind = {
  table: string;
  create(t: TestApp, s: Scene, n: number): Promise<number>;
  remove(t: TestApp, s: Scene, id: number): Promise<void>;
};

async function created(res: Response): Promise<number> {
  assert.ok(res.status === 200 || res.status === 201, `${res.status} ${await res.clone().text()}`);
  const body = await res.json();
  assert.equal(typeof body.id, "number");
  return body.id;
}

/** A create over the API with the admin's token. */
function post(path: string, body: (s: Scene, n: number, t: TestApp) => unknown) {
  return async (t: TestApp, s: Scene, n: number) =>
    await created(
      await t.request("POST", path, { token: s.company.admin.token, body: body(s, n, t) }),
    );
}

function del(path: string) {
  return async (t: TestApp, s: Scene, id: number) => {
    const res = await t.request("DELETE", `${path}/${id}`, { token: s.company.admin.token });
    assert.ok(res.status < 300, `${res.status} ${await res.text()}`);
  };
}

const kinds: Record<string, Kind> = {
  users: {
    table: "users",
    create: post("/api/users", (_, n) => ({
      name: `Pessoa ${n}`,
      email: `pessoa${n}@alpha.test`,
      password: "secret1",
      profile: "user",
    })),
    remove: del("/api/users"),
  },
  contacts: {
    table: "contacts",
    create: post("/api/contacts", (_, n) => ({ name: `Contato ${n}`, number: `551198888000${n}` })),
    remove: del("/api/contacts"),
  },
  tickets: {
    table: "tickets",
    create: async (t, s, n) => {
      const contactId = await addContact(t, s.company.id, `Cliente ${n}`, `551197777000${n}`);
      return await post("/api/tickets", () => ({ contactId, status: "open" }))(t, s, n);
    },
    remove: del("/api/tickets"),
  },
  contact_lists: {
    table: "contact_lists",
    create: post("/api/contact-lists", (_, n) => ({ name: `Lista ${n}` })),
    remove: del("/api/contact-lists"),
  },
  campaigns: {
    table: "campaigns",
    create: post("/api/campaigns", (_, n) => ({ name: `Campanha ${n}` })),
    remove: del("/api/campaigns"),
  },
  file_lists: {
    table: "file_lists",
    create: post("/api/files", (_, n) => ({ name: `Arquivos ${n}`, message: "Oi" })),
    remove: del("/api/files"),
  },
  messages: {
    table: "messages",
    // Messages arrive from WhatsApp or leave through a connection: written as the pipeline does.
    create: (t, s, n) => addMessage(t, s.company.id, { ticketId: s.ticketId, body: `msg ${n}` }),
    remove: async (t, _, id) => {
      await t.deps.db.deleteFrom("messages").where("id", "=", id).execute();
    },
  },
  chats: {
    table: "chats",
    create: post("/api/chats", (s, n) => ({ title: `Conversa ${n}`, users: [s.company.user.id] })),
    remove: del("/api/chats"),
  },
  chat_messages: {
    table: "chat_messages",
    create: async (t, s, n) => {
      const chat = await post("/api/chats", (s) => ({ title: "Fio", users: [s.company.user.id] }))(
        t,
        s,
        n,
      );
      return await post(`/api/chats/${chat}/messages`, () => ({ message: `oi ${n}` }))(t, s, n);
    },
    remove: async (t, _, id) => {
      await t.deps.db.deleteFrom("chat_messages").where("id", "=", id).execute();
    },
  },
  announcements: {
    table: "announcements",
    // Super users write announcements: the scene's admin is made one.
    create: async (t, s, n) => {
      await t.deps.db.updateTable("users").set({ super: 1 })
        .where("id", "=", s.company.admin.id).execute();
      return await post("/api/announcements", () => ({ title: `Aviso ${n}`, text: "texto" }))(
        t,
        s,
        n,
      );
    },
    remove: del("/api/announcements"),
  },
  push_subscriptions: {
    table: "push_subscriptions",
    // A browser's subscription: a key pair of its own (the endpoint is never called here).
    create: post("/api/push/subscriptions", (_, n) => {
      const ecdh = createECDH("prime256v1");
      ecdh.generateKeys();
      return {
        endpoint: `https://push.example.test/push/${n}-${crypto.randomUUID()}`,
        keys: {
          p256dh: ecdh.getPublicKey().toString("base64url"),
          auth: randomBytes(16).toString("base64url"),
        },
      };
    }),
    remove: del("/api/push/subscriptions"),
  },
  tags: {
    table: "tags",
    create: post("/api/tags", (_, n) => ({ name: `Etiqueta ${n}` })),
    remove: del("/api/tags"),
  },
  queues: {
    table: "queues",
    create: post("/api/queue", (_, n) => ({ name: `Fila ${n}`, color: QUEUE_COLORS[n + 2] })),
    remove: del("/api/queue"),
  },
  "queue integrations": {
    table: "queue_integrations",
    create: post("/api/queueIntegration", (_, n) => ({
      type: "webhook",
      name: `Integração ${n}`,
      urlN8N: "https://93.184.215.14/hook",
    })),
    remove: del("/api/queueIntegration"),
  },
  prompts: {
    table: "prompts",
    create: async (t, s, n) => {
      const queue = await created(
        await t.request("POST", "/api/queue", {
          token: s.company.admin.token,
          body: { name: `Fila IA ${n}`, color: QUEUE_COLORS[n + 20] },
        }),
      );
      return await created(
        await t.request("POST", "/api/prompt", {
          token: s.company.admin.token,
          body: { name: `Prompt ${n}`, apiKey: "sk-x", prompt: "Olá", queueId: queue },
        }),
      );
    },
    remove: del("/api/prompt"),
  },
  "queue options": {
    table: "queue_options",
    create: post("/api/queue-options", (s, n) => ({
      title: `Opção ${n}`,
      option: String(n),
      queueId: s.q1,
    })),
    remove: del("/api/queue-options"),
  },
  connections: {
    table: "whatsapps",
    create: post("/api/whatsapp", (_, n) => ({ name: `Conexão ${n}`, provider: "simulator" })),
    remove: del("/api/whatsapp"),
  },
  schedules: {
    table: "schedules",
    create: post("/api/schedules", (s, n, t) => ({
      body: `Lembrete ${n} da reunião`,
      contactId: s.contactId,
      sendAt: new Date(t.clock.now().getTime() + 3600_000).toISOString(),
    })),
    remove: del("/api/schedules"),
  },
  "quick messages": {
    table: "quick_messages",
    create: post("/api/quick-messages", (_, n) => ({ shortcode: `atalho${n}`, message: "Olá!" })),
    remove: del("/api/quick-messages"),
  },
  "ticket notes": {
    table: "ticket_notes",
    create: post("/api/ticket-notes", (s, n) => ({
      note: `Nota ${n}`,
      ticketId: s.ticketId,
      contactId: s.contactId,
    })),
    remove: del("/api/ticket-notes"),
  },
  settings: {
    table: "settings",
    // Settings are keyed rows seeded per company; the API only changes their values.
    create: async (t, s, n) => {
      const now = t.clock.now().toISOString();
      const row = await t.deps.db.insertInto("settings").values({
        companyId: s.company.id,
        key: `extra${n}`,
        value: "1",
        createdAt: now,
        updatedAt: now,
      }).returning("id").executeTakeFirstOrThrow();
      return row.id;
    },
    remove: async (t, _, id) => {
      await t.deps.db.deleteFrom("settings").where("id", "=", id).execute();
    },
  },
  invoices: {
    table: "invoices",
    // Invoices are made by the daily job, one per period (no API deletes them).
    create: async (t, s, n) =>
      (await ensurePeriodInvoice(t.deps.db, {
        companyId: s.company.id,
        detail: `Fatura ${n}`,
        value: 99,
        dueDate: `2027-0${n}-01`,
        now: t.clock.now().toISOString(),
      })).invoice.id,
    remove: async (t, _, id) => {
      await t.deps.db.deleteFrom("invoices").where("id", "=", id).execute();
    },
  },
};

async function exists(t: TestApp, table: string, id: number): Promise<boolean> {
  const rows = await sql.raw(`SELECT 1 FROM "${table}" WHERE id = ${Number(id)}`).execute(
    t.deps.db,
  );
  return rows.rows.length > 0;
}

for (const [name, kind] of Object.entries(kinds)) {
  Deno.test(`ids - ${name}: the newest deleted, the next one gets a new id, after a restart too`, async () => {
    let t = await createTestApp();
    try {
      const company = await createCompany(t, "Alpha");
      const base = await scene(t, company);
      const ticket = await addTicket(t, company.id, {
        contactId: base.contactId,
        whatsappId: base.whatsappId,
        status: "open",
        userId: company.admin.id,
      });
      const s: Scene = { ...base, company, ticketId: ticket.id };

      await kind.create(t, s, 1);
      const newest = await kind.create(t, s, 2);
      await kind.remove(t, s, newest);
      assert.equal(await exists(t, kind.table, newest), false);
      const next = await kind.create(t, s, 3);
      assert.ok(next > newest, `${name}: ${next} after ${newest} was deleted`);

      await kind.remove(t, s, next);
      t = await restartTestApp(t);
      const afterRestart = await kind.create(t, s, 4);
      assert.ok(afterRestart > next, `${name}: ${afterRestart} after a restart, ${next} deleted`);
    } finally {
      await t.close();
    }
  });
}
