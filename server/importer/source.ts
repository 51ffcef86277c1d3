import pg from "pg";

/**
 * The source database (issue 47): a Whaticket SaaS, whaticket-community or ticketz PostgreSQL,
 * only ever read, inside one READ ONLY REPEATABLE READ transaction (every table is read from the
 * same snapshot, and PostgreSQL itself refuses a write). Tables are streamed through server-side
 * cursors, a batch at a time: a million messages never sit in memory at once.
 */
export type SourceSystem = "whaticket-community" | "whaticket-saas" | "ticketz";

export type SourceInfo = {
  system: SourceSystem;
  /** The newest migration the source ran (its SequelizeMeta), e.g. 20220223095932-add-whatsapp-to-user. */
  version: string;
  /** Names the database: cluster identifier (or host) and database name. */
  fingerprint: string;
  multiCompany: boolean;
};

export class SourceError extends Error {}

export type Row = Record<string, unknown>;

/** ticketz's own migrations (not in the SaaS line it forked from). */
const TICKETZ_MARKS = [
  "add-uuid-ossp",
  "create-baileysKeys",
  "create-whatsapp-lid-maps",
  "create-translations-table",
];

/** The columns the importer reads, per table: a source missing one is a version we do not know. */
const REQUIRED: Record<string, string[]> = {
  Users: ["id", "name", "email", "passwordHash", "profile", "createdAt", "updatedAt"],
  Contacts: ["id", "name", "number", "email", "isGroup", "createdAt", "updatedAt"],
  Tickets: ["id", "status", "contactId", "userId", "queueId", "whatsappId", "createdAt"],
  Messages: ["id", "body", "ack", "fromMe", "isDeleted", "ticketId", "quotedMsgId", "createdAt"],
  Whatsapps: ["id", "name", "isDefault", "greetingMessage"],
  Queues: ["id", "name", "color", "greetingMessage"],
};

export class Source {
  private constructor(readonly client: pg.Client, readonly info: SourceInfo) {}

  /** Connects, opens the read-only snapshot and says which system and version this is. */
  static async open(url: string): Promise<Source> {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw new SourceError(`--from is not a PostgreSQL URL: ${url}`);
    }
    if (!/^postgres(ql)?:$/.test(parsed.protocol)) {
      throw new SourceError(`--from must be a postgres:// URL, not ${parsed.protocol}`);
    }
    const client = new pg.Client({
      connectionString: url,
      connectionTimeoutMillis: 10_000,
      // A DATE (ticketz' Companies.dueDate) as its text: the driver's Date would be local midnight.
      types: {
        getTypeParser: ((oid: number, format?: "text" | "binary") =>
          oid === DATE_OID
            ? (v: string) =>
              v
            : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
      },
    });
    try {
      await client.connect();
    } catch (error) {
      throw new SourceError(
        `cannot connect to the source database ${parsed.host}${parsed.pathname}: ${
          (error as Error).message || (error as { code?: string }).code || String(error)
        }`,
      );
    }
    try {
      await client.query("BEGIN TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY");
      const info = await detect(client);
      return new Source(client, info);
    } catch (error) {
      await client.end().catch(() => {});
      throw error;
    }
  }

  async count(sql: string, params: unknown[] = []): Promise<number> {
    const { rows } = await this.client.query(`SELECT count(*)::int AS n FROM (${sql}) q`, params);
    return rows[0].n as number;
  }

  async all(sql: string, params: unknown[] = []): Promise<Row[]> {
    return (await this.client.query(sql, params)).rows;
  }

  /** Streams a query's rows in batches through a server-side cursor. */
  async *batches(sql: string, params: unknown[] = [], size = 2000): AsyncGenerator<Row[]> {
    const name = `importer_${++cursorCount}`;
    await this.client.query(`DECLARE ${name} NO SCROLL CURSOR FOR ${sql}`, params);
    try {
      while (true) {
        const { rows } = await this.client.query(`FETCH FORWARD ${size} FROM ${name}`);
        if (rows.length === 0) return;
        yield rows;
      }
    } finally {
      await this.client.query(`CLOSE ${name}`).catch(() => {});
    }
  }

  async hasTable(table: string): Promise<boolean> {
    return await hasTable(this.client, table);
  }

  async close() {
    await this.client.query("ROLLBACK").catch(() => {});
    await this.client.end().catch(() => {});
  }
}

let cursorCount = 0;
const DATE_OID = 1082;

async function hasTable(client: pg.Client, table: string): Promise<boolean> {
  const { rows } = await client.query(
    `SELECT 1 FROM information_schema.tables WHERE table_schema = current_schema()
       AND table_name = $1`,
    [table],
  );
  return rows.length > 0;
}

async function detect(client: pg.Client): Promise<SourceInfo> {
  if (!await hasTable(client, "SequelizeMeta")) {
    throw new SourceError(
      "not a Whaticket or ticketz database: it has no SequelizeMeta table (the list of migrations they run)",
    );
  }
  const names = (await client.query(`SELECT "name" FROM "SequelizeMeta" ORDER BY "name"`)).rows
    .map((r) => String(r.name).replace(/\.(js|ts)$/, "").trim());
  if (!names.some((n) => n.endsWith("-create-users")) || !await hasTable(client, "Tickets")) {
    throw new SourceError(
      "not a Whaticket or ticketz database: its migrations do not create Users and Tickets",
    );
  }
  const multiCompany = names.some((n) => n.endsWith("-create-companies-table"));
  const system: SourceSystem = !multiCompany
    ? "whaticket-community"
    : names.some((n) => TICKETZ_MARKS.some((m) => n.endsWith(m)))
    ? "ticketz"
    : "whaticket-saas";
  const version = names.at(-1) ?? "";
  const missing: string[] = [];
  const columns = await client.query(
    `SELECT table_name, column_name FROM information_schema.columns
       WHERE table_schema = current_schema()`,
  );
  const have = new Set(columns.rows.map((r) => `${r.table_name}.${r.column_name}`));
  for (const [table, cols] of Object.entries(REQUIRED)) {
    for (const col of cols) if (!have.has(`${table}.${col}`)) missing.push(`"${table}"."${col}"`);
  }
  if (multiCompany && !have.has("Tickets.companyId")) missing.push(`"Tickets"."companyId"`);
  if (missing.length > 0) {
    throw new SourceError(
      `unknown version of ${system} (${version}): the columns ${
        missing.join(", ")
      } are missing; nothing was imported`,
    );
  }
  return { system, version, fingerprint: await fingerprint(client), multiCompany };
}

/** The cluster's identifier where we may read it, else the server's address; plus the database. */
async function fingerprint(client: pg.Client): Promise<string> {
  const db = (await client.query("SELECT current_database() AS d")).rows[0].d as string;
  await client.query("SAVEPOINT fingerprint");
  try {
    const { rows } = await client.query(
      "SELECT system_identifier::text AS id FROM pg_control_system()",
    );
    await client.query("RELEASE SAVEPOINT fingerprint");
    return `pg:${rows[0].id}/${db}`;
  } catch {
    await client.query("ROLLBACK TO SAVEPOINT fingerprint");
    const { rows } = await client.query(
      "SELECT coalesce(host(inet_server_addr()), 'local') AS h, inet_server_port() AS p",
    );
    return `pg:${rows[0].h}:${rows[0].p ?? ""}/${db}`;
  }
}
