import { sql } from "kysely";
import type { Database } from "../../db/client.ts";
import { hashPassword } from "../../server/auth/passwords.ts";
import { seedCompanySettings } from "../../server/seed.ts";

/**
 * A large company for the tickets benchmark: 50,000 contacts, 100,000 tickets, 1,000,000
 * messages, generated inside SQLite with recursive CTEs (no row crosses the JS boundary), in
 * batches of one transaction each (the app's triggers fill the search index, counters and report
 * tables as they would for rows the app writes). TICKETS_BENCH_SCALE (default 1) multiplies every
 * size: 10 is issue 49's company with ten times the data (1,000,000 tickets, 10,000,000
 * messages), the same year of activity ten times as dense. Bump DATA_VERSION when the shape
 * changes: cached files carry it (and the scale) in their name.
 */
export const DATA_VERSION = 1;
export const SCALE = Math.max(1, Number(Deno.env.get("TICKETS_BENCH_SCALE") ?? 1) || 1);
export const SIZES = {
  contacts: 50_000 * SCALE,
  tickets: 100_000 * SCALE,
  messages: 1_000_000 * SCALE,
};
/** Non-closed tickets, one per contact (tickets_one_open): ids 1..OPEN are open, next PENDING pending. */
export const OPEN = 5_000 * SCALE;
export const PENDING = 3_000 * SCALE;
/** Rows per transaction: the write-ahead log and the page cache stay bounded at any scale. */
const BATCH = { contacts: 50_000, tickets: 50_000, messages: 250_000 };
export const QUEUES = 5;
export const USERS = 20;
export const PASSWORD = "bench-password";

const FIRST = [
  "Ana",
  "Bruno",
  "Carla",
  "Daniel",
  "Eduarda",
  "Felipe",
  "Gabriela",
  "Henrique",
  "Isabela",
  "João",
  "Karina",
  "Lucas",
  "Mariana",
  "Nicolas",
  "Olivia",
  "Pedro",
  "Queila",
  "Rafael",
  "Sofia",
  "Thiago",
  "Ursula",
  "Vitor",
  "Wesley",
  "Ximena",
  "Yasmin",
  "Zeca",
  "Beatriz",
  "Caio",
  "Débora",
  "Elias",
];
const LAST = [
  "Silva",
  "Santos",
  "Oliveira",
  "Souza",
  "Rodrigues",
  "Ferreira",
  "Alves",
  "Pereira",
  "Lima",
  "Gomes",
  "Costa",
  "Ribeiro",
  "Martins",
  "Carvalho",
  "Almeida",
  "Lopes",
  "Soares",
  "Fernandes",
  "Vieira",
  "Barbosa",
];
/** Common words of support chats; words later in the list are rarer (see the weights below). */
const WORDS = (
  "olá bom dia boa tarde obrigado por favor pedido entrega prazo pagamento boleto pix cartão " +
  "nota fiscal produto troca devolução garantia suporte atendimento cadastro senha acesso " +
  "aplicativo site problema erro ajuda informação valor preço desconto frete endereço número " +
  "protocolo cancelamento assinatura plano fatura vencimento segunda via comprovante transferência " +
  "aguardo retorno confirmação agendamento visita técnico instalação manutenção orçamento " +
  "contrato documento certidão reclamação elogio sugestão dúvida urgente hoje amanhã semana mês " +
  "ontem agora depois cedo tarde noite certo beleza combinado perfeito entendi claro sim não " +
  "talvez quando onde quanto porque como qual quem rastreio correios transportadora motoboy " +
  "retirada loja unidade filial matriz estoque disponível indisponível reserva promoção cupom " +
  "parcelamento juros multa reembolso estorno chargeback bloqueio desbloqueio liberação aprovação"
).split(" ");

async function exec(db: Database, text: string) {
  await sql.raw(text).execute(db);
}

export type BenchCompany = {
  companyId: number;
  adminEmail: string;
  userEmail: string;
  queueIds: number[];
  whatsappId: number;
  /** addConversationExtras ran on this data. */
  conversationExtras?: boolean;
};

/**
 * Fills an empty, migrated database. Takes a minute or two on 2 cores at scale 1; cache the
 * file. `progress` hears each finished batch (the table and the rows so far).
 */
export async function generate(
  db: Database,
  now: Date,
  progress?: (table: string, rows: number) => void,
): Promise<BenchCompany> {
  const stamp = now.toISOString();
  const hash = await hashPassword(PASSWORD, 4);
  const setup = await db.transaction().execute(async (trx) => {
    const plan = await trx.insertInto("plans").values({
      name: "Bench",
      createdAt: stamp,
      updatedAt: stamp,
    }).returning("id").executeTakeFirstOrThrow();
    const company = await trx.insertInto("companies").values({
      name: "Bench Co",
      email: null,
      phone: null,
      planId: plan.id,
      dueDate: "2999-12-31",
      recurrence: "MENSAL",
      billingName: null,
      addressZipCode: null,
      addressStreet: null,
      addressState: null,
      addressCity: null,
      addressDistrict: null,
      createdAt: stamp,
      updatedAt: stamp,
    }).returning("id").executeTakeFirstOrThrow();
    const c = company.id;
    await seedCompanySettings(trx, c, stamp);
    const whatsapp = await trx.insertInto("whatsapps").values({
      companyId: c,
      name: "Principal",
      number: "5511900000000",
      promptId: null,
      isDefault: 1,
      provider: "simulator",
      createdAt: stamp,
      updatedAt: stamp,
    }).returning("id").executeTakeFirstOrThrow();
    const queueIds: number[] = [];
    for (let q = 0; q < QUEUES; q++) {
      queueIds.push(
        (await trx.insertInto("queues").values({
          companyId: c,
          name: `Fila ${q + 1}`,
          color: `#0000${q}${q}`,
          orderQueue: q,
          integrationId: null,
          promptId: null,
          mediaPath: null,
          mediaName: null,
          createdAt: stamp,
          updatedAt: stamp,
        }).returning("id").executeTakeFirstOrThrow()).id,
      );
    }
    const userIds: number[] = [];
    for (let u = 0; u < USERS; u++) {
      const row = await trx.insertInto("users").values({
        companyId: c,
        name: `Atendente ${u + 1}`,
        email: u === 0 ? "admin@bench.test" : `user${u}@bench.test`,
        passwordHash: hash,
        profile: u === 0 ? "admin" : "user",
        whatsappId: null,
        lastSeenAt: null,
        createdAt: stamp,
        updatedAt: stamp,
      }).returning("id").executeTakeFirstOrThrow();
      userIds.push(row.id);
      // Each attendant serves two neighbouring queues.
      await trx.insertInto("user_queues").values([
        { companyId: c, userId: row.id, queueId: queueIds[u % QUEUES] },
        { companyId: c, userId: row.id, queueId: queueIds[(u + 1) % QUEUES] },
      ]).execute();
    }

    return {
      companyId: c,
      adminEmail: "admin@bench.test",
      userEmail: "user1@bench.test",
      queueIds,
      whatsappId: whatsapp.id,
      userIds,
    };
  });
  const c = setup.companyId;
  const whatsappId = setup.whatsappId;
  const day = 86_400_000;
  const start = now.getTime() - 365 * day;
  /** One transaction of generated rows, the lookup lists at hand (temporary tables, dropped). */
  const batch = async (statements: string[]) => {
    await db.transaction().execute(async (trx) => {
      // A bigger page cache for the writer while it fills random places of large indexes.
      await exec(trx, `PRAGMA cache_size = -131072`);
      await exec(trx, `CREATE TEMP TABLE bench_first(id INTEGER PRIMARY KEY, v TEXT)`);
      await exec(trx, `CREATE TEMP TABLE bench_last(id INTEGER PRIMARY KEY, v TEXT)`);
      await exec(trx, `CREATE TEMP TABLE bench_words(id INTEGER PRIMARY KEY, v TEXT)`);
      await exec(trx, `CREATE TEMP TABLE bench_users(id INTEGER PRIMARY KEY, v INTEGER)`);
      await exec(trx, `CREATE TEMP TABLE bench_queues(id INTEGER PRIMARY KEY, v INTEGER)`);
      const fill = async (table: string, values: (string | number)[]) => {
        await sql`INSERT INTO ${sql.table(table)} (id, v) SELECT key, value FROM json_each(${
          JSON.stringify(values)
        })`.execute(trx);
      };
      await fill("bench_first", FIRST);
      await fill("bench_last", LAST);
      await fill("bench_words", WORDS);
      await fill("bench_users", setup.userIds);
      await fill("bench_queues", setup.queueIds);
      for (const statement of statements) await exec(trx, statement);
      for (
        const table of ["bench_first", "bench_last", "bench_words", "bench_users", "bench_queues"]
      ) {
        await exec(trx, `DROP TABLE temp.${table}`);
      }
      await exec(trx, `PRAGMA cache_size = -2000`);
    });
  };
  /** `WITH RECURSIVE s(i)` over [lo, hi). */
  const series = (name: string, lo: number, hi: number) =>
    `WITH RECURSIVE s(${name}) AS (SELECT ${lo} UNION ALL SELECT ${name} + 1 FROM s WHERE ${name} < ${
      hi - 1
    })`;
  const batches = async (
    what: keyof typeof BATCH,
    statements: (lo: number, hi: number) => string[],
  ) => {
    for (let lo = 0; lo < SIZES[what]; lo += BATCH[what]) {
      const hi = Math.min(SIZES[what], lo + BATCH[what]);
      await batch(statements(lo, hi));
      progress?.(what, hi);
    }
  };

  // Contacts: names from the lists, numbers 55 11 9xxxx-xxxx.
  await batches("contacts", (lo, hi) => [
    `${series("i", lo, hi)}
     INSERT INTO contacts (uuid, companyId, name, number, email, profilePicUrl, isGroup,
       createdAt, updatedAt)
     SELECT lower(hex(randomblob(16))), ${c},
       (SELECT v FROM bench_first WHERE id = i % ${FIRST.length}) || ' ' ||
       (SELECT v FROM bench_last WHERE id = (i / ${FIRST.length}) % ${LAST.length}) || ' ' || i,
       '55119' || printf('%08d', i), '', '', 0, '${stamp}', '${stamp}'
     FROM s`,
  ]);
  const firstContact = (await sql<{ id: number }>`SELECT min(id) AS id FROM contacts
    WHERE companyId = ${c}`.execute(db)).rows[0].id;

  // Tickets: the first OPEN are open (assigned), the next PENDING pending (unassigned, some
  // unread), the rest closed; activity spread over a year, ticket i's contact is i mod contacts.
  await batches("tickets", (lo, hi) => {
    return [
      `${series("i", lo, hi)}
       INSERT INTO tickets (uuid, companyId, contactId, whatsappId, userId, queueId, status,
         lastMessage, unreadMessages, createdAt, updatedAt, acceptedAt, closedAt)
       SELECT lower(hex(randomblob(16))), ${c}, ${firstContact} + (i % ${SIZES.contacts}),
         ${whatsappId},
         CASE WHEN i < ${OPEN} OR i >= ${OPEN + PENDING}
           THEN (SELECT v FROM bench_users WHERE id = abs(random()) % ${USERS} + 0 * i) END,
         CASE WHEN i % 10 = 0 THEN NULL
           ELSE (SELECT v FROM bench_queues WHERE id = abs(random()) % ${QUEUES} + 0 * i) END,
         CASE WHEN i < ${OPEN} THEN 'open' WHEN i < ${OPEN + PENDING} THEN 'pending'
           ELSE 'closed' END,
         'mensagem ' || i,
         CASE WHEN i < ${OPEN + PENDING} AND i % 3 = 0 THEN 1 + abs(random()) % 5 ELSE 0 END,
         strftime('%Y-%m-%dT%H:%M:%fZ', (${start} + abs(random()) % ${360 * day}) / 1000.0,
           'unixepoch'),
         '', NULL, NULL
       FROM s`,
      // This batch's tickets: the last hi - lo ids (one writer, consecutive ids).
      `UPDATE tickets SET updatedAt = strftime('%Y-%m-%dT%H:%M:%fZ',
         julianday(createdAt) + (abs(random()) % 432000) / 86400.0)
       WHERE id > (SELECT max(id) FROM tickets) - ${hi - lo} AND companyId = ${c}
         AND updatedAt = ''`,
    ];
  });
  const firstTicket = (await sql<{ id: number }>`SELECT min(id) AS id FROM tickets
    WHERE companyId = ${c}`.execute(db)).rows[0].id;

  // Messages: ten per ticket on average (ticket = j mod tickets), 3-12 words drawn with a skew
  // (the square of a uniform number) so that early words are common and late ones rare; one
  // every 31 ms at scale 1 (the same span, denser, at a larger scale).
  const w = WORDS.length;
  // "+ 0 * j" makes the subquery correlated: SQLite would otherwise run it once and reuse it.
  const word =
    `(SELECT v FROM bench_words WHERE id = (abs(random()) % ${w}) * (abs(random()) % ${w}) / ${w} + 0 * j)`;
  const at = `strftime('%Y-%m-%dT%H:%M:%fZ', (${start} + j * ${31 / SCALE}) / 1000.0, 'unixepoch')`;
  await batches("messages", (lo, hi) => [
    `${series("j", lo, hi)}
     INSERT INTO messages (companyId, ticketId, contactId, whatsappId, body, fromMe, ack, read,
       createdAt, updatedAt)
     SELECT ${c}, ${firstTicket} + (j % ${SIZES.tickets}), NULL, ${whatsappId},
       ${word} || ' ' || ${word} || ' ' || ${word} ||
         CASE WHEN j % 2 = 0 THEN ' ' || ${word} || ' ' || ${word} ELSE '' END ||
         CASE WHEN j % 3 = 0 THEN ' ' || ${word} || ' ' || ${word} || ' ' || ${word} ELSE '' END ||
         ' ' || (j % 9973),
       j % 2, 3, 1, ${at}, ${at}
     FROM s`,
  ]);
  const { userIds: _, ...company } = setup;
  return company;
}

/**
 * What a real conversation carries besides text (issue 49): every fifth message quotes the
 * message before it in its ticket (ids 100,000 apart share a ticket), every eighth is an image
 * or a document, counted by the message's place in its ticket (`k`; a ticket's ids share their
 * remainders). Run once on generated data (bench.json records it): UPDATEs of columns no
 * trigger reads, so the search index and the counters stay as they were.
 */
export async function addConversationExtras(db: Database, companyId: number): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const first = (await sql<{ id: number }>`SELECT min(id) AS id FROM messages
      WHERE companyId = ${companyId}`.execute(trx)).rows[0].id;
    const k = `(id + (id - ${first}) / ${SIZES.tickets})`;
    await exec(
      trx,
      `UPDATE messages SET quotedMsgId = id - ${SIZES.tickets}
       WHERE companyId = ${companyId} AND ${k} % 5 = 0 AND id - ${SIZES.tickets} >= ${first}`,
    );
    await exec(
      trx,
      `UPDATE messages SET
         mediaType = CASE WHEN ${k} % 16 = 3 THEN 'image' ELSE 'application' END,
         mediaUrl = 'bench/' || id || CASE WHEN ${k} % 16 = 3 THEN '.jpg' ELSE '.pdf' END,
         mediaName = CASE WHEN ${k} % 16 = 3 THEN 'foto-' || id || '.jpg'
           ELSE 'boleto-' || id || '.pdf' END,
         mediaMimetype = CASE WHEN ${k} % 16 = 3 THEN 'image/jpeg' ELSE 'application/pdf' END
       WHERE companyId = ${companyId} AND ${k} % 8 = 3`,
    );
  });
}
