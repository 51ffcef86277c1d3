/**
 * Issue 46 item 7, the engines side by side: the tickets benchmark's data (100,000 tickets,
 * 1,000,000 messages; generated on libSQL when missing) copied into a PostgreSQL database by
 * `migrate-db` itself (its time printed), then the same figures on PostgreSQL: in-process lists,
 * messages and search (tickets_bench.ts), the hot lists over HTTP, and the list throughput of
 * one process against two processes on the one database with Redis. The libSQL figures are
 * tickets_bench.ts's own. Targets on PostgreSQL: list and message p95 <= 5 ms, search p95 <= 50
 * ms, two processes >= 1.6x one process's throughput (a 2-core machine also runs PostgreSQL and
 * the clients: read the load average printed beside it).
 */
import { loadConfig } from "../../server/config.ts";
import { migrateDatabase } from "../../server/ops/migrate_db.ts";
import { APP_VERSION } from "../../server/ops/version.ts";
import { startPostgres } from "../helpers/postgres_server.ts";
import { startRedis } from "../helpers/redis_server.ts";
import { httpLoad, loadAverage, login, print, startServer } from "./http_load.ts";
import { benchHttp, benchTickets, benchTicketsDir } from "./tickets_bench.ts";
import { PASSWORD } from "./tickets_data.ts";

const libsql = await benchTickets({ measure: false });
const pg = await startPostgres();
try {
  const url = await pg.createDatabase("bench");
  const t0 = performance.now();
  const code = await migrateDatabase(loadConfig({ DATA_DIR: benchTicketsDir() }), {
    to: url,
    batch: 5_000,
    sample: 20,
    appVersion: APP_VERSION,
    say: () => {},
  });
  if (code !== 0) throw new Error("migrate-db found a difference");
  print(
    `\nmigrate-db copied the bench data to PostgreSQL in ${
      ((performance.now() - t0) / 1000).toFixed(0)
    } s (load average ${loadAverage()})`,
  );
  const bench = await benchTickets({ databaseUrl: url });
  await benchHttp(bench, { DATABASE_URL: url });
  await twoProcesses(url, bench.dir, libsql.company.userEmail, libsql.company.queueIds);
} finally {
  await pg.stop();
}

/** The user's open list, 16 clients: on one process, then split over two behind one Redis. */
async function twoProcesses(url: string, dir: string, email: string, queueIds: number[]) {
  const seconds = Number(Deno.env.get("BENCH_HTTP_SECONDS") ?? 10);
  const queues = encodeURIComponent(JSON.stringify(queueIds.slice(1, 3)));
  const path = () => `/api/tickets?status=open&queueIds=${queues}`;
  const redis = await startRedis();
  // Each process a data folder of its own for its lock and keys; the database is PostgreSQL's.
  const dirs = [dir, await Deno.makeTempDir({ prefix: "balcao-bench-b-" })];
  const servers = [];
  try {
    for (const [i, d] of dirs.entries()) {
      servers.push(
        await startServer(d, { DATABASE_URL: url, REDIS_URL: redis.url, INSTANCE_ID: `p${i}` }),
      );
    }
    const token = await login(servers[0].url, email, PASSWORD);
    await httpLoad(servers[0].url, token, path, { clients: 16, requests: 100 });
    const one = await httpLoad(servers[0].url, token, path, { clients: 16, seconds });
    await httpLoad(servers[1].url, token, path, { clients: 16, requests: 100 });
    const both = await Promise.all(
      servers.map((s) => httpLoad(s.url, token, path, { clients: 8, seconds })),
    );
    const perSecond = both.reduce((sum, r) => sum + r.perSecond, 0);
    print(
      `\nPostgreSQL, open list of a user, 16 clients: one process ${
        one.perSecond.toFixed(0)
      } req/s, two processes ${perSecond.toFixed(0)} req/s (${
        (perSecond / one.perSecond).toFixed(2)
      }x; target >= 1.6x); load average ${loadAverage()}`,
    );
  } finally {
    for (const server of servers) await server.stop();
    await redis.stop();
    await Deno.remove(dirs[1], { recursive: true }).catch(() => {});
  }
}
