import bcrypt from "bcryptjs";
import type { PostgresServer } from "./postgres_server.ts";
import { fk, quote, STAMPS, TS } from "./sequelize_ddl.ts";
import { campaignRows, campaignTables } from "./whaticket_campaigns.ts";

/**
 * Source databases for the importer's tests (issue 47): the schemas whaticket-community and
 * Whaticket SaaS end up with after their Sequelize migrations (table and column names quoted in
 * camelCase, STRING as VARCHAR(255), DATE as TIMESTAMP WITH TIME ZONE, SERIAL ids, foreign keys
 * with their ON DELETE rules), written from reading those migrations, with `SequelizeMeta` listing
 * the migrations as their compiled files are named. Then a small hand-made data set that covers
 * every mapped field and the odd cases: a ticket whose user was deleted, tickets without a queue,
 * a message quoting a message that is gone (a dump restored with triggers off), a group chat, a
 * contact known only by its LID, two open tickets of one contact on one connection.
 */

export const COMMUNITY_MIGRATIONS = [
  "20200717133438-create-users",
  "20200717144403-create-contacts",
  "20200717145643-create-tickets",
  "20200717151645-create-messages",
  "20200717170223-create-whatsapps",
  "20200723200315-create-contacts-custom-fields",
  "20200723202116-add-email-field-to-contacts",
  "20200730153237-remove-user-association-from-messages",
  "20200730153545-add-fromMe-to-messages",
  "20200813114236-change-ticket-lastMessage-column-type",
  "20200901235509-add-profile-column-to-users",
  "20200903215941-create-settings",
  "20200904220257-add-name-to-whatsapp",
  "20200906122228-add-name-default-field-to-whatsapp",
  "20200906155658-add-whatsapp-field-to-tickets",
  "20200919124112-update-default-column-name-on-whatsappp",
  "20200927220708-add-isDeleted-column-to-messages",
  "20200929145451-add-user-tokenVersion-column",
  "20200930162323-add-isGroup-column-to-tickets",
  "20200930194808-add-isGroup-column-to-contacts",
  "20201004150008-add-contactId-column-to-messages",
  "20201004155719-add-vcardContactId-column-to-messages",
  "20201004955719-remove-vcardContactId-column-to-messages",
  "20201026215410-add-retries-to-whatsapps",
  "20201028124427-add-quoted-msg-to-messages",
  "20210108001431-add-unreadMessages-to-tickets",
  "20210108164404-create-queues",
  "20210108164504-add-queueId-to-tickets",
  "20210108174594-associate-whatsapp-queue",
  "20210108204708-associate-users-queue",
  "20210109192513-add-greetingMessage-to-whatsapp",
  "20210818102605-create-quickAnswers",
  "20211016014719-add-farewellMessage-to-whatsapp",
  "20220223095932-add-whatsapp-to-user",
];

/** The SaaS lineage's migrations after the shared start (the ones whose tables we read). */
export const SAAS_MIGRATIONS = [
  ...COMMUNITY_MIGRATIONS.filter((m) =>
    !m.includes("quickAnswers") && !m.startsWith("2021101") &&
    !m.startsWith("2022022")
  ),
  "20210109192514-create-companies-table",
  "20210109192515-add-column-companyId-to-Settings-table",
  "20210109192516-add-column-companyId-to-Users-table",
  "20210109192517-add-column-companyId-to-Contacts-table",
  "20210109192518-add-column-companyId-to-Messages-table",
  "20210109192519-add-column-companyId-to-Queues-table",
  "20210109192520-add-column-companyId-to-Whatsapps-table",
  "20210109192521-add-column-companyId-to-Tickets-table",
  "20210109192522-create-plans-table",
  "20210109192523-add-column-planId-to-Companies",
  "20210109192523-add-column-status-and-schedules-to-Companies",
  "20210109192523-create-ticket-notes",
  "20210109192524-create-quick-messages",
  "20210109192525-add-column-complationMessage-to-whatsapp",
  "20210109192526-add-column-outOfHoursMessage-to-whatsapp ",
  "20210109192527-add-column-super-to-Users-table",
  "20210109192533-create-UserRatings-table",
  "20210109192535-add-column-ratingMessage-to-whatsapp",
  "20210818102606-add-uuid-to-tickets",
  "20211205164404-create-queue-options",
  "20211212125704-add-chatbot-to-tickets",
  "20211227010200-create-schedules",
  "20220115114088-add-column-userId-to-QuickMessages-table",
  "20220117130000-create-tags",
  "20220117134400-associate-tickets-tags",
  "20220122160900-add-status-to-schedules",
  "20220220014719-add-farewellMessage-to-whatsapp",
  "20220221014718-add-remoteJid-messages",
  "20220221014719-add-jsonMessage-messages",
  "20220221014720-add-participant-messages",
  "20220315110005-remove-constraint-to-Settings",
  "20220406000000-add-column-dueDate-to-Companies",
  "20220406000001-add-column-recurrence-to-Companies",
  "20220411000002-add-column-schedules-and-outOfHoursMessage-to-Queues",
  "20220814000000-add-value-to-plans",
  "20220315110000-create-ContactLists-table",
  "20220315110001-create-ContactListItems-table",
  "20220315110002-create-Campaigns-table",
  "20220321130000-create-CampaignShipping",
  "20220411000003-create-table-Announcements",
  "20220512000003-create-invoices",
  "20231219153800-add-isEdited-column-to-messages",
];

/** Tables both lines share, as community leaves them; `saas` adds its columns. */
function coreSchema(saas: boolean): string[] {
  const company = saas ? `, "companyId" ${fk("Companies", "CASCADE")}` : "";
  return [
    `CREATE TABLE "SequelizeMeta" ("name" VARCHAR(255) NOT NULL UNIQUE, PRIMARY KEY ("name"))`,
    ...(saas
      ? [
        `CREATE TABLE "Plans" ("id" SERIAL, "name" VARCHAR(255) NOT NULL UNIQUE, "users" INTEGER DEFAULT 0,
          "connections" INTEGER DEFAULT 0, "queues" INTEGER DEFAULT 0, ${STAMPS},
          "value" INTEGER DEFAULT 0, PRIMARY KEY ("id"))`,
        `CREATE TABLE "Companies" ("id" SERIAL, "name" VARCHAR(255) NOT NULL UNIQUE, "phone" VARCHAR(255),
          "email" VARCHAR(255), ${STAMPS}, "planId" ${fk("Plans", "SET NULL")},
          "status" BOOLEAN DEFAULT true, "schedules" JSONB DEFAULT '[]', "dueDate" ${TS},
          "recurrence" VARCHAR(255) DEFAULT '', PRIMARY KEY ("id"))`,
      ]
      : []),
    `CREATE TABLE "Whatsapps" ("id" SERIAL, "session" TEXT, "qrcode" TEXT, "status" VARCHAR(255),
      "battery" VARCHAR(255), "plugged" BOOLEAN, ${STAMPS}, "name" VARCHAR(255) NOT NULL UNIQUE,
      "isDefault" BOOLEAN NOT NULL DEFAULT false, "retries" INTEGER NOT NULL DEFAULT 0,
      "greetingMessage" TEXT, "farewellMessage" TEXT${company}${
      saas
        ? `, "complationMessage" TEXT, "outOfHoursMessage" TEXT, "ratingMessage" TEXT, "token" TEXT`
        : ""
    }, PRIMARY KEY ("id"))`,
    `CREATE TABLE "Users" ("id" SERIAL, "name" VARCHAR(255) NOT NULL, "email" VARCHAR(255) NOT NULL UNIQUE,
      "passwordHash" VARCHAR(255) NOT NULL, ${STAMPS}, "profile" VARCHAR(255) NOT NULL DEFAULT 'admin',
      "tokenVersion" INTEGER NOT NULL DEFAULT 0,
      "whatsappId" ${fk("Whatsapps", "SET NULL")}${company}${
      saas ? `, "super" BOOLEAN DEFAULT false, "online" BOOLEAN DEFAULT false` : ""
    }, PRIMARY KEY ("id"))`,
    `CREATE TABLE "Contacts" ("id" SERIAL, "name" VARCHAR(255) NOT NULL, "number" VARCHAR(255) NOT NULL${
      saas ? "" : " UNIQUE"
    }, "profilePicUrl" VARCHAR(255), ${STAMPS}, "email" VARCHAR(255) NOT NULL DEFAULT '',
      "isGroup" BOOLEAN NOT NULL DEFAULT false${company}, PRIMARY KEY ("id")${
      saas ? `, UNIQUE ("number", "companyId")` : ""
    })`,
    `CREATE TABLE "ContactCustomFields" ("id" SERIAL, "name" VARCHAR(255) NOT NULL,
      "value" VARCHAR(255) NOT NULL, "contactId" ${fk("Contacts", "CASCADE")} NOT NULL, ${STAMPS},
      PRIMARY KEY ("id"))`,
    `CREATE TABLE "Queues" ("id" SERIAL, "name" VARCHAR(255) NOT NULL${saas ? "" : " UNIQUE"},
      "color" VARCHAR(255) NOT NULL${
      saas ? "" : " UNIQUE"
    }, "greetingMessage" TEXT, ${STAMPS}${company}${
      saas ? `, "schedules" JSONB DEFAULT '[]', "outOfHoursMessage" TEXT` : ""
    }, PRIMARY KEY ("id"))`,
    ...(saas
      ? [
        `CREATE TABLE "QueueOptions" ("id" SERIAL, "title" VARCHAR(255) NOT NULL, "message" TEXT,
          "option" TEXT, "queueId" ${fk("Queues", "CASCADE")}, "parentId" ${
          fk("QueueOptions", "CASCADE")
        }, ${STAMPS}, PRIMARY KEY ("id"))`,
      ]
      : []),
    `CREATE TABLE "Tickets" ("id" SERIAL, "status" VARCHAR(255) NOT NULL DEFAULT 'pending',
      "lastMessage" TEXT, "contactId" ${fk("Contacts", "CASCADE")}, "userId" ${
      fk("Users", "SET NULL")
    },
      "createdAt" ${TS} NOT NULL, "updatedAt" ${TS} NOT NULL,
      "whatsappId" ${fk("Whatsapps", "SET NULL")}, "isGroup" BOOLEAN NOT NULL DEFAULT false,
      "unreadMessages" INTEGER, "queueId" ${fk("Queues", "SET NULL")}${company}${
      saas
        ? `, "uuid" UUID, "chatbot" BOOLEAN DEFAULT false, "queueOptionId" ${
          fk("QueueOptions", "SET NULL")
        }`
        : ""
    }, PRIMARY KEY ("id"))`,
    `CREATE TABLE "Messages" ("id" VARCHAR(255) NOT NULL, "body" TEXT NOT NULL,
      "ack" INTEGER NOT NULL DEFAULT 0, "read" BOOLEAN NOT NULL DEFAULT false,
      "mediaType" VARCHAR(255), "mediaUrl" VARCHAR(255),
      "ticketId" ${fk("Tickets", "CASCADE")} NOT NULL, "createdAt" ${TS} NOT NULL,
      "updatedAt" ${TS} NOT NULL, "fromMe" BOOLEAN NOT NULL DEFAULT false,
      "isDeleted" BOOLEAN NOT NULL DEFAULT false, "contactId" ${fk("Contacts", "CASCADE")},
      "quotedMsgId" VARCHAR(255) REFERENCES "Messages" ("id") ON DELETE SET NULL ON UPDATE CASCADE${company}${
      saas
        ? `, "remoteJid" TEXT, "dataJson" TEXT, "participant" TEXT,
          "isEdited" BOOLEAN NOT NULL DEFAULT false`
        : ""
    }, PRIMARY KEY ("id"))`,
    saas
      ? `CREATE TABLE "Settings" ("key" VARCHAR(255) NOT NULL, "value" TEXT NOT NULL, ${STAMPS},
          "companyId" ${fk("Companies", "CASCADE")}, "id" SERIAL, PRIMARY KEY ("id"))`
      : `CREATE TABLE "Settings" ("key" VARCHAR(255) NOT NULL, "value" TEXT NOT NULL, ${STAMPS},
          PRIMARY KEY ("key"))`,
    `CREATE TABLE "WhatsappQueues" ("whatsappId" INTEGER, "queueId" INTEGER, ${STAMPS},
      PRIMARY KEY ("whatsappId", "queueId"))`,
    `CREATE TABLE "UserQueues" ("userId" INTEGER, "queueId" INTEGER, ${STAMPS},
      PRIMARY KEY ("userId", "queueId"))`,
    ...(saas ? saasOnly() : [
      `CREATE TABLE "QuickAnswers" ("id" SERIAL, "shortcut" TEXT NOT NULL, "message" TEXT NOT NULL,
        ${STAMPS}, PRIMARY KEY ("id"))`,
    ]),
  ];
}

function saasOnly(): string[] {
  return [
    `CREATE TABLE "QuickMessages" ("id" SERIAL, "shortcode" VARCHAR(255) NOT NULL, "message" TEXT,
      "companyId" ${fk("Companies", "CASCADE")}, ${STAMPS}, "userId" ${fk("Users", "SET NULL")},
      PRIMARY KEY ("id"))`,
    `CREATE TABLE "Tags" ("id" SERIAL, "name" VARCHAR(255) NOT NULL, "color" VARCHAR(255),
      "companyId" ${fk("Companies", "CASCADE")} NOT NULL, ${STAMPS}, PRIMARY KEY ("id"))`,
    `CREATE TABLE "TicketTags" ("ticketId" ${fk("Tickets", "CASCADE")} NOT NULL,
      "tagId" ${fk("Tags", "CASCADE")} NOT NULL, ${STAMPS})`,
    `CREATE TABLE "Schedules" ("id" SERIAL, "body" TEXT NOT NULL, "sendAt" ${TS}, "sentAt" ${TS},
      "contactId" ${fk("Contacts", "CASCADE")}, "ticketId" ${fk("Tickets", "SET NULL")},
      "userId" ${fk("Users", "SET NULL")}, "companyId" ${fk("Companies", "CASCADE")}, ${STAMPS},
      "status" VARCHAR(255), PRIMARY KEY ("id"))`,
    `CREATE TABLE "TicketNotes" ("id" SERIAL, "note" VARCHAR(255) NOT NULL,
      "userId" ${fk("Users", "SET NULL")}, "contactId" ${fk("Contacts", "CASCADE")} NOT NULL,
      "ticketId" ${fk("Tickets", "SET NULL")}, ${STAMPS}, PRIMARY KEY ("id"))`,
    `CREATE TABLE "ContactLists" ("id" SERIAL, "name" VARCHAR(255) NOT NULL,
      "companyId" ${fk("Companies", "CASCADE")}, ${STAMPS}, PRIMARY KEY ("id"))`,
    `CREATE TABLE "ContactListItems" ("id" SERIAL, "name" VARCHAR(255) NOT NULL,
      "number" VARCHAR(255) NOT NULL, "email" VARCHAR(255),
      "contactListId" ${fk("ContactLists", "CASCADE")} NOT NULL,
      "isWhatsappValid" BOOLEAN DEFAULT false, "companyId" ${fk("Companies", "CASCADE")}, ${STAMPS},
      PRIMARY KEY ("id"))`,
    ...campaignTables(),
    // Created before its companyId, dueDate last but one (20220512000003-create-invoices).
    `CREATE TABLE "Invoices" ("id" SERIAL, "detail" VARCHAR(255), "status" VARCHAR(255),
      "value" FLOAT, ${STAMPS}, "dueDate" VARCHAR(255), "companyId" ${fk("Companies", "CASCADE")},
      PRIMARY KEY ("id"))`,
    `CREATE TABLE "UserRatings" ("id" SERIAL, "ticketId" ${fk("Tickets", "SET NULL")},
      "companyId" ${fk("Companies", "CASCADE")}, "userId" ${fk("Users", "SET NULL")},
      "rate" INTEGER NOT NULL DEFAULT 0, "createdAt" ${TS}, "updatedAt" ${TS}, PRIMARY KEY ("id"))`,
  ];
}

function meta(names: string[]): string {
  return `INSERT INTO "SequelizeMeta" ("name") VALUES ${
    names.map((n) => `(${quote(`${n}.js`)})`).join(", ")
  }`;
}

export type SourceKind = "community" | "saas";

/** Creates the empty schema of `kind` in a new database of `pg`; its URL. */
export async function createSourceSchema(pg: PostgresServer, kind: SourceKind): Promise<string> {
  const url = await pg.createDatabase();
  const name = new URL(url).pathname.slice(1);
  const statements = [
    ...coreSchema(kind === "saas"),
    meta(kind === "saas" ? SAAS_MIGRATIONS : COMMUNITY_MIGRATIONS),
  ];
  await pg.psql(name, statements.join(";\n"));
  return url;
}

export const OLD_PASSWORDS = { ana: "senha-antiga-ana", bruno: "senha-antiga-bruno" };

/**
 * The hand-made data set of a community database (one company by nature). Instants are fixed
 * so that the tests compare them exactly.
 */
export async function fillCommunity(pg: PostgresServer, url: string): Promise<void> {
  const db = new URL(url).pathname.slice(1);
  const ana = bcrypt.hashSync(OLD_PASSWORDS.ana, 8);
  const bruno = bcrypt.hashSync(OLD_PASSWORDS.bruno, 8);
  const t = (minute: number) => quote(`2024-03-01T12:${String(minute).padStart(2, "0")}:00.000Z`);
  await pg.psql(
    db,
    [
      `INSERT INTO "Settings" VALUES ('userCreation', 'disabled', ${t(0)}, ${t(0)}),
        ('someOldOnlyKey', 'x', ${t(0)}, ${t(0)})`,
      `INSERT INTO "Whatsapps" ("id", "session", "qrcode", "status", "name", "isDefault", "retries",
        "greetingMessage", "farewellMessage", "createdAt", "updatedAt") VALUES
        (1, '{"creds":"secret"}', '', 'CONNECTED', 'Comercial', true, 0, 'Bem-vindo!', 'Até logo!', ${
        t(0)
      }, ${t(0)})`,
      `INSERT INTO "Queues" VALUES (1, 'Vendas', '#ff0000', 'Fila de vendas', ${t(0)}, ${t(0)}),
        (2, 'Suporte', '#00ff00', NULL, ${t(0)}, ${t(0)})`,
      `INSERT INTO "WhatsappQueues" VALUES (1, 1, ${t(0)}, ${t(0)}), (1, 2, ${t(0)}, ${t(0)})`,
      `INSERT INTO "Users" ("id", "name", "email", "passwordHash", "profile", "tokenVersion",
        "whatsappId", "createdAt", "updatedAt") VALUES
        (1, 'Ana Admin', 'Ana@Old.test', '${ana}', 'admin', 2, 1, ${t(0)}, ${t(1)}),
        (2, 'Bruno', 'bruno@old.test', '${bruno}', 'user', 0, NULL, ${t(0)}, ${t(0)})`,
      `INSERT INTO "UserQueues" VALUES (1, 1, ${t(0)}, ${t(0)}), (2, 2, ${t(0)}, ${t(0)})`,
      `INSERT INTO "Contacts" ("id", "name", "number", "profilePicUrl", "email", "isGroup",
        "createdAt", "updatedAt") VALUES
        (1, 'Carla', '5511999990001', 'https://pps.example/carla.jpg', 'carla@mail.test', false, ${
        t(0)
      }, ${t(0)}),
        (2, 'Grupo Família', '120363000000000001', NULL, '', true, ${t(0)}, ${t(0)}),
        (3, 'Lia', '98765432109876@lid', NULL, '', false, ${t(0)}, ${t(0)})`,
      `INSERT INTO "ContactCustomFields" VALUES (1, 'CPF', '123.456.789-00', 1, ${t(0)}, ${t(0)})`,
      // 1 closed with a queue and a user; 2 open (Bruno, unread); 3 a group, pending, no queue;
      // 4 open whose user was deleted (SET NULL), no queue; 5 a second open ticket of contact 1
      // on connection 1.
      `INSERT INTO "Tickets" ("id", "status", "lastMessage", "contactId", "userId", "createdAt",
        "updatedAt", "whatsappId", "isGroup", "unreadMessages", "queueId") VALUES
        (1, 'closed', 'Oi, em que posso ajudar?', 1, 1, ${t(1)}, ${t(9)}, 1, false, 0, 1),
        (2, 'open', 'Preciso de suporte', 1, 2, ${t(10)}, ${t(12)}, 1, false, 2, 2),
        (3, 'pending', 'Bom dia grupo', 2, NULL, ${t(13)}, ${t(14)}, 1, true, 1, NULL),
        (4, 'open', 'Olá', 3, NULL, ${t(15)}, ${t(16)}, 1, false, 0, NULL),
        (5, 'open', 'duplicado', 1, 1, ${t(17)}, ${t(18)}, 1, false, 0, 1)`,
      `INSERT INTO "Messages" ("id", "body", "ack", "read", "mediaType", "mediaUrl", "ticketId",
        "createdAt", "updatedAt", "fromMe", "isDeleted", "contactId", "quotedMsgId") VALUES
        ('WID-1', 'Olá', 0, true, 'chat', NULL, 1, ${t(2)}, ${t(2)}, false, false, 1, NULL),
        ('WID-2', 'Oi, em que posso ajudar?', 3, true, 'chat', NULL, 1, ${t(3)}, ${
        t(3)
      }, true, false, NULL, 'WID-1'),
        ('WID-3', 'foto.jpg', 0, true, 'image', '1709294400000-foto.jpg', 1, ${t(4)}, ${
        t(4)
      }, false, false, 1, NULL),
        ('WID-4', 'apagada', 0, true, 'chat', NULL, 1, ${t(5)}, ${t(5)}, false, true, 1, NULL),
        ('WID-5', 'Preciso de suporte', 0, false, 'chat', NULL, 2, ${t(11)}, ${
        t(11)
      }, false, false, 1, NULL),
        ('WID-6', 'Bom dia grupo', 0, false, 'chat', NULL, 3, ${t(14)}, ${
        t(14)
      }, false, false, 1, NULL),
        ('WID-7', 'Olá', 0, true, 'chat', NULL, 4, ${t(16)}, ${t(16)}, false, false, 3, NULL),
        ('WID-8', 'sem arquivo', 0, true, 'audio', '1709294400001-audio.ogg', 2, ${t(12)}, ${
        t(12)
      }, false, false, 1, NULL)`,
      // A quote of a message that is not there: dumps restored with triggers off carry these.
      `SET session_replication_role = replica;
       INSERT INTO "Messages" ("id", "body", "ticketId", "createdAt", "updatedAt", "fromMe",
         "quotedMsgId") VALUES ('WID-9', 'respondendo', 2, ${t(12)}, ${t(12)}, true, 'GONE-1');
       SET session_replication_role = DEFAULT`,
      `INSERT INTO "QuickAnswers" VALUES (1, '/oi', 'Olá! Como posso ajudar?', ${t(0)}, ${t(0)})`,
    ].join(";\n"),
  );
}

const ROOT = new URL("../../", import.meta.url).pathname;

/** Runs `deno task import:whaticket`'s script in a process of its own on `dataDir`. */
export async function runImporter(
  dataDir: string,
  args: string[],
  env: Record<string, string> = {},
) {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "scripts/import_whaticket.ts", "--", ...args],
    cwd: ROOT,
    env: { DATA_DIR: dataDir, LOG_LEVEL: "warn", ADMIN_PASSWORD: "admin-password-1", ...env },
    stdout: "piped",
    stderr: "piped",
  }).output();
  return {
    code: out.code,
    stdout: new TextDecoder().decode(out.stdout),
    stderr: new TextDecoder().decode(out.stderr),
  };
}

/** The hand-made data set of a Whaticket SaaS database: two companies, one named as ours. */
export async function fillSaas(pg: PostgresServer, url: string): Promise<void> {
  const db = new URL(url).pathname.slice(1);
  const hash = bcrypt.hashSync(OLD_PASSWORDS.ana, 8);
  const t = (minute: number) => quote(`2024-05-01T09:${String(minute).padStart(2, "0")}:00.000Z`);
  const s = `${t(0)}, ${t(0)}`;
  await pg.psql(
    db,
    [
      `INSERT INTO "Plans" ("id", "name", "users", "connections", "queues", "value", "createdAt",
        "updatedAt") VALUES (1, 'Plano Básico', 5, 2, 3, 99, ${s})`,
      // "Empresa 1" is also the name our first start gives its company.
      `INSERT INTO "Companies" ("id", "name", "phone", "email", "planId", "status", "schedules",
        "dueDate", "recurrence", "createdAt", "updatedAt") VALUES
        (1, 'Empresa 1', '5511900000001', 'dona@empresa1.test', 1, true,
          '[{"weekday":"Segunda-feira","startTime":"08:00","endTime":"18:00"}]',
          '2025-01-10T00:00:00Z', 'MENSAL', ${s}),
        (2, 'Loja Dois', NULL, 'loja@dois.test', 1, true, '[]', '2025-02-20T00:00:00Z', 'ANUAL', ${s})`,
      `INSERT INTO "Settings" ("key", "value", "companyId", "createdAt", "updatedAt") VALUES
        ('userRating', 'enabled', 1, ${s}), ('userRating', 'disabled', 2, ${s})`,
      `INSERT INTO "Whatsapps" ("id", "name", "status", "isDefault", "greetingMessage",
        "complationMessage", "outOfHoursMessage", "ratingMessage", "companyId", "createdAt",
        "updatedAt") VALUES
        (1, 'Zap 1', 'CONNECTED', true, 'Olá', 'Tchau', 'Fechado agora', 'Nota de 1 a 3', 1, ${s}),
        (2, 'Zap 2', 'qrcode', true, '', '', '', '', 2, ${s})`,
      `INSERT INTO "Queues" ("id", "name", "color", "greetingMessage", "companyId", "schedules",
        "outOfHoursMessage", "createdAt", "updatedAt") VALUES
        (1, 'Atendimento', '#111111', 'Escolha:', 1, '[]', 'Fora do horário', ${s}),
        (2, 'Atendimento', '#111111', '', 2, '[]', NULL, ${s})`,
      `INSERT INTO "QueueOptions" ("id", "title", "message", "option", "queueId", "parentId",
        "createdAt", "updatedAt") VALUES
        (1, 'Financeiro', 'Financeiro: 1 boletos', '1', 1, NULL, ${s}),
        (2, 'Boletos', 'Segunda via enviada', '1', 1, 1, ${s})`,
      `INSERT INTO "WhatsappQueues" VALUES (1, 1, ${s}), (2, 2, ${s})`,
      `INSERT INTO "Users" ("id", "name", "email", "passwordHash", "profile", "companyId", "super",
        "createdAt", "updatedAt") VALUES
        (1, 'Dono', 'dono@saas.test', '${hash}', 'admin', 1, true, ${s}),
        (2, 'Dora', 'dora@saas.test', '${hash}', 'user', 2, false, ${s})`,
      `INSERT INTO "UserQueues" VALUES (1, 1, ${s}), (2, 2, ${s})`,
      `INSERT INTO "Contacts" ("id", "name", "number", "companyId", "createdAt", "updatedAt") VALUES
        (1, 'Eva', '5511988887777', 1, ${s}), (2, 'Eva', '5511988887777', 2, ${s})`,
      `INSERT INTO "Tags" ("id", "name", "color", "companyId", "createdAt", "updatedAt") VALUES
        (1, 'VIP', '#ffcc00', 1, ${s})`,
      `INSERT INTO "Tickets" ("id", "status", "lastMessage", "contactId", "userId", "whatsappId",
        "queueId", "companyId", "uuid", "chatbot", "unreadMessages", "createdAt", "updatedAt") VALUES
        (1, 'open', 'editada', 1, 1, 1, 1, 1, 'a0000000-0000-4000-8000-000000000001', false, 1, ${
        t(1)
      }, ${t(3)}),
        (2, 'closed', 'obrigado', 2, 2, 2, 2, 2, 'a0000000-0000-4000-8000-000000000002', false, 0, ${
        t(1)
      }, ${t(20)})`,
      `INSERT INTO "TicketTags" VALUES (1, 1, ${s})`,
      `INSERT INTO "Messages" ("id", "body", "ack", "ticketId", "contactId", "companyId", "fromMe",
        "remoteJid", "participant", "dataJson", "isEdited", "createdAt", "updatedAt") VALUES
        ('S-1', 'editada', 0, 1, 1, 1, false, '5511988887777@s.whatsapp.net', NULL, '{"k":1}', true, ${
        t(2)
      }, ${t(3)}),
        ('S-2', 'obrigado', 2, 2, NULL, 2, true, '5511988887777@s.whatsapp.net', NULL, NULL, false, ${
        t(10)
      }, ${t(10)})`,
      `INSERT INTO "QuickMessages" ("id", "shortcode", "message", "companyId", "userId", "createdAt",
        "updatedAt") VALUES (1, 'boleto', 'Segue o boleto', 1, 1, ${s})`,
      `INSERT INTO "Schedules" ("id", "body", "sendAt", "sentAt", "contactId", "ticketId", "userId",
        "companyId", "status", "createdAt", "updatedAt") VALUES
        (1, 'Lembrete', '2030-01-01T12:00:00Z', NULL, 1, NULL, 1, 1, 'PENDENTE', ${s}),
        (2, 'Enviado', '2024-04-01T12:00:00Z', '2024-04-01T12:00:05Z', 1, 1, 1, 1, 'ENVIADA', ${s})`,
      `INSERT INTO "UserRatings" ("id", "ticketId", "companyId", "userId", "rate", "createdAt",
        "updatedAt") VALUES (1, 2, 2, 2, 3, ${t(21)}, ${t(21)})`,
      `INSERT INTO "TicketNotes" ("id", "note", "userId", "contactId", "ticketId", "createdAt",
        "updatedAt") VALUES (1, 'cliente pediu retorno', 1, 1, 1, ${s})`,
      `INSERT INTO "ContactLists" VALUES (1, 'Clientes VIP', 1, ${s}), (2, 'Outra empresa', 2, ${s})`,
      `INSERT INTO "ContactListItems" VALUES
        (1, 'Rita', '55 (11) 97777-0001', 'rita@mail.test', 1, true, 1, ${s}),
        (2, 'Sem número', '', NULL, 1, NULL, 1, ${s}),
        (3, 'Téo', '5521966660002', NULL, 2, NULL, 2, ${s})`,
      `INSERT INTO "Invoices" VALUES
        (1, 'Plano Pro - maio', 'paid', 149.9, ${t(1)}, ${t(5)}, '2024-05-10', 1),
        (2, 'Plano Pro - junho', 'open', 149.9, ${s}, '2024-06-10T00:00:00.000Z', 1)`,
      ...campaignRows(t),
    ].join(";\n"),
  );
}
