import assert from "node:assert/strict";
import { sql } from "kysely";
import { openDatabase } from "../../db/client.ts";
import { giveTicket } from "../../server/distribution/repository.ts";
import { createCompany, createTestApp } from "../helpers/app.ts";
import { eventually } from "../helpers/eventually.ts";
import { testPostgresDatabase } from "../helpers/engine.ts";
import { addContact, addTicket } from "../helpers/tickets.ts";

// Issue 46: distribution's capacity guard under PostgreSQL's concurrency. Two connections (two
// processes' pools) give the last place of one attendant at once: the second waits for the
// first's transaction and then sees the place taken.
Deno.test("distribution on PostgreSQL - two givers racing for an attendant's last place: one wins", async () => {
  const url = await testPostgresDatabase();
  const t = await createTestApp({ DATABASE_URL: url });
  const other = await openDatabase(url);
  try {
    const a = await createCompany(t, "Alpha");
    const first = await addTicket(t, a.id, {
      contactId: await addContact(t, a.id, "Um", "5511900000001"),
    });
    const second = await addTicket(t, a.id, {
      contactId: await addContact(t, a.id, "Dois", "5511900000002"),
    });
    const userId = a.user.id;
    let secondGave: Promise<boolean> | undefined;
    const firstGave = await t.deps.db.transaction().execute(async (trx) => {
      const gave = await giveTicket(trx, a.id, first.id, userId, 1, {});
      // The other process tries while this transaction holds the place, uncommitted.
      secondGave = giveTicket(other, a.id, second.id, userId, 1, {});
      await eventually(async () => {
        const waiting = await sql<{ n: number }>`SELECT count(*) AS n FROM pg_stat_activity
          WHERE wait_event_type = 'Lock' AND datname = current_database()`.execute(other);
        assert.equal(waiting.rows[0].n, 1, "the second giver waits for the first");
        return true;
      });
      return gave;
    });
    assert.equal(firstGave, true);
    assert.equal(await secondGave, false, "the last place was taken");
    const held = await t.deps.db.selectFrom("tickets").select("id").where("companyId", "=", a.id)
      .where("userId", "=", userId).where("status", "=", "open").execute();
    assert.deepEqual(held.map((r) => r.id), [first.id]);
  } finally {
    await other.destroy();
    await t.close();
  }
});
