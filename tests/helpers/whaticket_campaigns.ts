import { fk, STAMPS, TS } from "./sequelize_ddl.ts";

/**
 * Whaticket SaaS' campaigns, their shipping rows and the platform's announcements for the
 * importer's fixture (issue 47), as the SaaS migrations of 2022 create them
 * (create-Campaigns-table, create-CampaignShipping, create-table-Announcements).
 */

export function campaignTables(): string[] {
  const texts = [1, 2, 3, 4, 5].map((n) => `"message${n}" TEXT DEFAULT '',`).join(" ") +
    [1, 2, 3, 4, 5].map((n) => ` "confirmationMessage${n}" TEXT DEFAULT '',`).join("");
  return [
    `CREATE TABLE "Campaigns" ("id" SERIAL, "name" VARCHAR(255) NOT NULL, ${texts}
      "status" VARCHAR(255), "confirmation" BOOLEAN DEFAULT false, "mediaPath" TEXT,
      "mediaName" TEXT, "companyId" ${fk("Companies", "CASCADE")} NOT NULL,
      "contactListId" INTEGER REFERENCES "ContactLists" ("id") ON DELETE SET NULL ON UPDATE SET NULL,
      "whatsappId" INTEGER REFERENCES "Whatsapps" ("id") ON DELETE SET NULL ON UPDATE SET NULL,
      "scheduledAt" ${TS}, "completedAt" ${TS}, ${STAMPS}, PRIMARY KEY ("id"))`,
    `CREATE TABLE "CampaignShipping" ("id" SERIAL, "jobId" VARCHAR(255), "number" VARCHAR(255) NOT NULL,
      "message" TEXT NOT NULL, "confirmationMessage" TEXT, "confirmation" BOOLEAN,
      "contactId" INTEGER REFERENCES "ContactListItems" ("id") ON DELETE SET NULL ON UPDATE SET NULL,
      "campaignId" ${fk("Campaigns", "CASCADE")} NOT NULL, "confirmationRequestedAt" ${TS},
      "confirmedAt" ${TS}, "deliveredAt" ${TS}, ${STAMPS}, PRIMARY KEY ("id"))`,
    `CREATE TABLE "Announcements" ("id" SERIAL, "priority" INTEGER, "title" VARCHAR(255) NOT NULL,
      "text" TEXT NOT NULL, "mediaPath" TEXT, "mediaName" TEXT,
      "companyId" ${fk("Companies", "CASCADE")} NOT NULL, "status" BOOLEAN, ${STAMPS},
      PRIMARY KEY ("id"))`,
  ];
}

/**
 * One finished campaign (two numbers delivered, one answered its confirmation) and one still
 * running there (one delivered, one waiting): history to read, never to send again. Two
 * announcements, one switched off.
 */
export function campaignRows(t: (minute: number) => string): string[] {
  const s = `${t(0)}, ${t(0)}`;
  return [
    `INSERT INTO "Campaigns" ("id", "name", "message1", "message2", "confirmationMessage1",
      "status", "confirmation", "companyId", "contactListId", "whatsappId", "scheduledAt",
      "completedAt", "createdAt", "updatedAt") VALUES
      (1, 'Black Friday', 'Oferta {nome}!', 'Promo {nome}', 'Confirma, {nome}?', 'FINALIZADA', true,
        1, 1, 1, '2024-04-20T10:00:00Z', '2024-04-20T11:00:00Z', ${s}),
      (2, 'Natal', 'Feliz Natal', '', '', 'EM_ANDAMENTO', false, 1, 1, 1,
        '2024-04-25T10:00:00Z', NULL, ${s})`,
    `INSERT INTO "CampaignShipping" ("id", "number", "message", "confirmationMessage",
      "confirmation", "contactId", "campaignId", "confirmationRequestedAt", "confirmedAt",
      "deliveredAt", "createdAt", "updatedAt") VALUES
      (1, '5511977770001', 'Oferta Rita!', 'Confirma, Rita?', true, 1, 1,
        '2024-04-20T10:01:00Z', '2024-04-20T10:05:00Z', '2024-04-20T10:06:00Z', ${s}),
      (2, '5511977770009', 'Oferta Zé!', NULL, NULL, NULL, 1, NULL, NULL, '2024-04-20T10:02:00Z', ${s}),
      (3, '5511977770001', 'Feliz Natal', NULL, NULL, 1, 2, NULL, NULL, '2024-04-25T10:01:00Z', ${s}),
      (4, '5511977770008', 'Feliz Natal', NULL, NULL, NULL, 2, NULL, NULL, NULL, ${s})`,
    `INSERT INTO "Announcements" ("id", "priority", "title", "text", "mediaPath", "mediaName",
      "companyId", "status", "createdAt", "updatedAt") VALUES
      (1, 1, 'Manutenção', 'Sábado às 22h', NULL, NULL, 1, true, ${s}),
      (2, 3, 'Antigo', 'Já passou', 'aviso.png', 'aviso.png', 1, false, ${s})`,
  ];
}
