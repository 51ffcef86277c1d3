import bcrypt from "bcryptjs";
import type { PostgresServer } from "./postgres_server.ts";
import { STAMPS } from "./sequelize_ddl.ts";
import { createSourceSchema, OLD_PASSWORDS, SAAS_MIGRATIONS } from "./whaticket_source.ts";

/**
 * A ticketz source database for the importer's tests (issue 47). ticketz forked the SaaS line, so
 * its schema is the SaaS one changed by its own migrations, read from ticketz-oss/ticketz and
 * applied here as they apply them (the names below are theirs): the message key becomes the pair
 * (id, ticketId) and the quote's foreign key goes, the company's due date becomes a DATE, users
 * lose `online`, contacts gain tags of their own and a LID map, and columns nobody imports (channel,
 * language, currency, payment fields, the message's error) appear.
 */

export const TICKETZ_MIGRATIONS = [
  ...SAAS_MIGRATIONS,
  "20200717133431-add-uuid-ossp",
  "20222016014719-add-channel-to-contacts",
  "20222016014719-add-channel-to-message",
  "20222016014719-add-channel-to-ticket",
  "20230904212800-alter-value-to-plans",
  "20230915212800-add-public-to-plans",
  "20240418173900-changes-messages-and-oldmessages-tables",
  "20240504105300-add-paymentfields-to-invoices",
  "20240507112700-add-queue-options-fields",
  "20240827171200-add-thumbnailurl-to-messages",
  "20240914200100-whatsapps-change-unique-name",
  "20241122134400-create-contactTags",
  "20241128175800-add-save-messages-to-schedules",
  "20250520150600-change-duedate-to-dateonly",
  "20250612092900-create-whatsapp-lid-maps",
  "20250618151400-remove-online-from-users",
  "20250625162100-add-language-field-to-many-tables",
  "20250831112100-add-currency-to-Plans",
  "20250901093900-add-currency-to-Invoices",
  "20260522120000-add-error-to-messages",
];

const CHANGES = [
  `ALTER TABLE "Contacts" ADD COLUMN "channel" TEXT DEFAULT 'whatsapp'`,
  `ALTER TABLE "Messages" ADD COLUMN "channel" TEXT DEFAULT 'whatsapp'`,
  `ALTER TABLE "Tickets" ADD COLUMN "channel" TEXT DEFAULT 'whatsapp'`,
  `ALTER TABLE "Plans" ALTER COLUMN "value" TYPE FLOAT, ALTER COLUMN "value" DROP DEFAULT`,
  `ALTER TABLE "Plans" ADD COLUMN "isPublic" BOOLEAN NOT NULL DEFAULT true`,
  `ALTER TABLE "Messages" DROP CONSTRAINT "Messages_quotedMsgId_fkey"`,
  `ALTER TABLE "Messages" DROP CONSTRAINT "Messages_pkey"`,
  `ALTER TABLE "Messages" ADD CONSTRAINT "Messges_id_ticketId_pk" PRIMARY KEY ("id", "ticketId")`,
  `ALTER TABLE "Invoices" ADD COLUMN "txId" VARCHAR(255), ADD COLUMN "payGw" VARCHAR(255),
    ADD COLUMN "payGwData" TEXT`,
  `ALTER TABLE "QueueOptions" ADD COLUMN "forwardQueueId" INTEGER REFERENCES "Queues" ("id"),
    ADD COLUMN "exitChatbot" BOOLEAN DEFAULT false`,
  `ALTER TABLE "Messages" ADD COLUMN "thumbnailUrl" VARCHAR(255)`,
  `ALTER TABLE "Whatsapps" DROP CONSTRAINT "Whatsapps_name_key"`,
  `ALTER TABLE "Whatsapps" ADD CONSTRAINT "company_name_constraint" UNIQUE ("companyId", "name")`,
  `CREATE TABLE "ContactTags" ("contactId" INTEGER NOT NULL REFERENCES "Contacts" ("id")
    ON DELETE CASCADE ON UPDATE CASCADE, "tagId" INTEGER NOT NULL REFERENCES "Tags" ("id")
    ON DELETE CASCADE ON UPDATE CASCADE, ${STAMPS},
    CONSTRAINT "unique_contact_tag" UNIQUE ("contactId", "tagId"))`,
  `ALTER TABLE "Schedules" ADD COLUMN "saveMessage" BOOLEAN NOT NULL DEFAULT false`,
  `ALTER TABLE "Companies" ALTER COLUMN "dueDate" TYPE DATE USING ("dueDate" AT TIME ZONE 'UTC')::DATE`,
  `CREATE TABLE "WhatsappLidMaps" ("id" SERIAL, "lid" VARCHAR(255) NOT NULL,
    "companyId" INTEGER NOT NULL, "contactId" INTEGER NOT NULL REFERENCES "Contacts" ("id")
    ON DELETE CASCADE ON UPDATE CASCADE, ${STAMPS}, PRIMARY KEY ("id"),
    CONSTRAINT "unique_lid_companyId" UNIQUE ("lid", "companyId"))`,
  `ALTER TABLE "Users" DROP COLUMN "online"`,
  `ALTER TABLE "Contacts" ADD COLUMN "language" VARCHAR(255)`,
  `ALTER TABLE "Whatsapps" ADD COLUMN "language" VARCHAR(255)`,
  `ALTER TABLE "Companies" ADD COLUMN "language" VARCHAR(255)`,
  `ALTER TABLE "Plans" ADD COLUMN "currency" VARCHAR(255)`,
  `ALTER TABLE "Invoices" ADD COLUMN "currency" VARCHAR(255)`,
  `ALTER TABLE "Messages" ADD COLUMN "error" JSONB`,
];

/** The SaaS schema, then ticketz's own migrations; its URL. */
export async function createTicketzSchema(pg: PostgresServer): Promise<string> {
  const url = await createSourceSchema(pg, "saas");
  const meta = TICKETZ_MIGRATIONS.map((n) => `('${n}.js')`).join(", ");
  await pg.psql(
    new URL(url).pathname.slice(1),
    [
      ...CHANGES,
      `DELETE FROM "SequelizeMeta"`,
      `INSERT INTO "SequelizeMeta" ("name") VALUES ${meta}`,
    ].join(";\n"),
  );
  return url;
}

/**
 * One company: a plan priced with cents, a due date kept as a DATE, a contact known by its number
 * whose LID sits in the LID map, two tickets of that contact (the same WhatsApp message id in
 * both, as ticketz's key allows) and an answer in the second quoting a message of the first.
 */
export async function fillTicketz(pg: PostgresServer, url: string): Promise<void> {
  const hash = bcrypt.hashSync(OLD_PASSWORDS.ana, 8);
  const t = (minute: number) => `'2025-06-01T08:${String(minute).padStart(2, "0")}:00.000Z'`;
  const s = `${t(0)}, ${t(0)}`;
  await pg.psql(
    new URL(url).pathname.slice(1),
    [
      `INSERT INTO "Plans" ("id", "name", "users", "connections", "queues", "value", "currency",
        "createdAt", "updatedAt") VALUES (1, 'Plano Z', 3, 1, 2, 49.9, 'BRL', ${s})`,
      `INSERT INTO "Companies" ("id", "name", "email", "planId", "status", "dueDate", "language",
        "createdAt", "updatedAt") VALUES (1, 'Ticketz Ltda', 'z@ticketz.test', 1, true,
        '2025-07-15', 'pt', ${s})`,
      `INSERT INTO "Whatsapps" ("id", "name", "status", "isDefault", "greetingMessage", "companyId",
        "language", "createdAt", "updatedAt") VALUES (1, 'Zap Z', 'CONNECTED', true, 'Oi!', 1, 'pt', ${s})`,
      `INSERT INTO "Users" ("id", "name", "email", "passwordHash", "profile", "companyId", "super",
        "createdAt", "updatedAt") VALUES (1, 'Zeca', 'zeca@ticketz.test', '${hash}', 'admin', 1, false, ${s})`,
      `INSERT INTO "Contacts" ("id", "name", "number", "companyId", "channel", "language",
        "createdAt", "updatedAt") VALUES (1, 'Bia', '5511955554444', 1, 'whatsapp', 'pt', ${s})`,
      `INSERT INTO "WhatsappLidMaps" ("lid", "companyId", "contactId", "createdAt", "updatedAt")
        VALUES ('112233445566@lid', 1, 1, ${s})`,
      `INSERT INTO "Tags" ("id", "name", "color", "companyId", "createdAt", "updatedAt") VALUES
        (1, 'Lead', '#00aa00', 1, ${s})`,
      `INSERT INTO "ContactTags" VALUES (1, 1, ${s})`,
      `INSERT INTO "Tickets" ("id", "status", "lastMessage", "contactId", "userId", "whatsappId",
        "companyId", "uuid", "unreadMessages", "channel", "createdAt", "updatedAt") VALUES
        (1, 'closed', 'primeira', 1, 1, 1, 1, 'b0000000-0000-4000-8000-000000000001', 0,
          'whatsapp', ${t(1)}, ${t(5)}),
        (2, 'open', 'respondendo', 1, 1, 1, 1, 'b0000000-0000-4000-8000-000000000002', 1,
          'whatsapp', ${t(10)}, ${t(12)})`,
      `INSERT INTO "Messages" ("id", "body", "ack", "ticketId", "contactId", "companyId", "fromMe",
        "quotedMsgId", "thumbnailUrl", "error", "createdAt", "updatedAt") VALUES
        ('TZ-1', 'primeira', 0, 1, 1, 1, false, NULL, NULL, NULL, ${t(2)}, ${t(2)}),
        ('TZ-1', 'primeira', 0, 2, 1, 1, false, NULL, NULL, NULL, ${t(2)}, ${t(2)}),
        ('TZ-2', 'pergunta antiga', 0, 1, 1, 1, false, NULL, NULL, NULL, ${t(3)}, ${t(3)}),
        ('TZ-3', 'respondendo', 1, 2, NULL, 1, true, 'TZ-2', NULL, '{"code":"x"}', ${t(11)}, ${
        t(11)
      })`,
    ].join(";\n"),
  );
}
