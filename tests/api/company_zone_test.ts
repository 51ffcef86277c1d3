import assert from "node:assert/strict";
import {
  createTestApp,
  createUser,
  login,
  TestClock,
  type TestCompany,
  type TestUser,
  twoCompanies,
} from "../helpers/app.ts";
import { eventually } from "../helpers/eventually.ts";
import { serve, type TestSocket } from "../helpers/server.ts";
import { addQueue, addTicket, addWhatsapp, ticketRow } from "../helpers/tickets.ts";
import { defaultWorkingHours } from "../../server/queues/hours.ts";
import { contacts, goOnline, newPending } from "../distribution/helpers.ts";

/**
 * Issue 43 item 1: every local date or hour of a company is on its zone's clock (the setting
 * `timeZone`), not São Paulo's. For a company in Manaus (UTC-4), Fernando de Noronha (UTC-2) and
 * Lisbon (a daylight-saving change inside the tested days), each instant below is chosen where
 * São Paulo's clock (UTC-3) gives another answer:
 * - a report day: tickets created near midnight count on the local day (days table, heat map);
 *   Manaus's ticket exists before the zone is chosen (its stored day moves with the change);
 * - an SLA due time across closed hours: Saturday 11:30 with a 60-minute first-answer target in
 *   the default hours (Mon-Fri 08-18, Sat 08-12) is due Monday 08:30, local;
 * - a queue's hours: a ticket at a local open time is given out;
 * - a user's shift: an attendant working 17:00-18:00 gets the ticket of 17:30, local;
 * - the dashboard's hourly chart puts today's ticket in its local hour.
 */
type Case = {
  zone: string;
  /** Tickets created at these instants ... */
  reportAt: string[];
  /** ... count on this local day (of [from, to]); its weekday (0 Sunday) and their local hours. */
  reportDay: string;
  range: [string, string];
  heat: { weekday: number; hours: number[] };
  /** Saturday 11:30 local (open until 12:00), and Monday 08:30 local. */
  slaAt: string;
  slaDue: string;
  /** A local time within the queue's hours that São Paulo's clock has closed. */
  openAt: string;
  /** Monday 17:30 local. */
  shiftAt: string;
};

const CASES: Case[] = [
  {
    zone: "America/Manaus",
    reportAt: ["2026-11-23T03:30:00.000Z"], // Sunday 22nd 23:30 (São Paulo: Monday 00:30)
    reportDay: "2026-11-22",
    range: ["2026-11-22", "2026-11-23"],
    heat: { weekday: 0, hours: [23] },
    slaAt: "2026-11-28T15:30:00.000Z", // Saturday 11:30 (São Paulo: 12:30, closed)
    slaDue: "2026-11-30T12:30:00.000Z", // Monday 08:30
    openAt: "2026-11-30T21:30:00.000Z", // Monday 17:30 (São Paulo: 18:30, closed)
    shiftAt: "2026-12-01T21:30:00.000Z", // Tuesday 17:30 (São Paulo: 18:30)
  },
  {
    zone: "America/Noronha",
    reportAt: ["2026-11-23T02:30:00.000Z"], // Monday 23rd 00:30 (São Paulo: Sunday 23:30)
    reportDay: "2026-11-23",
    range: ["2026-11-22", "2026-11-23"],
    heat: { weekday: 1, hours: [0] },
    slaAt: "2026-11-28T13:30:00.000Z", // Saturday 11:30 (São Paulo: 10:30)
    slaDue: "2026-11-30T10:30:00.000Z", // Monday 08:30
    openAt: "2026-11-30T10:30:00.000Z", // Monday 08:30 (São Paulo: 07:30, closed)
    shiftAt: "2026-11-30T19:30:00.000Z", // Monday 17:30 (São Paulo: 16:30)
  },
  {
    // Summer time (UTC+1) ends on Sunday 25 October 2026 at 01:00 UTC.
    zone: "Europe/Lisbon",
    reportAt: [
      "2026-10-24T23:30:00.000Z", // Sunday 25th 00:30, summer time (São Paulo: Saturday 20:30)
      "2026-10-25T23:30:00.000Z", // Sunday 25th 23:30, winter time (São Paulo: Sunday 20:30)
    ],
    reportDay: "2026-10-25",
    range: ["2026-10-20", "2026-10-30"],
    heat: { weekday: 0, hours: [0, 23] },
    slaAt: "2026-10-24T10:30:00.000Z", // Saturday 11:30 summer time (São Paulo: 07:30)
    slaDue: "2026-10-26T08:30:00.000Z", // Monday 08:30 winter time
    openAt: "2026-10-26T08:30:00.000Z", // Monday 08:30 (São Paulo: 05:30, closed)
    shiftAt: "2026-10-26T17:30:00.000Z", // Monday 17:30 (São Paulo: 14:30)
  },
];

async function fresh(t: Awaited<ReturnType<typeof createTestApp>>, user: TestUser) {
  user.token = (await login(t, user.email, user.password)).token;
}

for (const c of CASES) {
  Deno.test(`company zone - ${c.zone}: report days, SLA due time, queue hours, a shift, the dashboard`, async () => {
    const t = await createTestApp({}, new TestClock(c.reportAt[0]));
    const s = serve(t);
    const sockets: TestSocket[] = [];
    try {
      const { a, b } = await twoCompanies(t);
      const setZone = async (company: TestCompany) => {
        const res = await t.request("PUT", "/api/settings/timeZone", {
          token: company.admin.token,
          body: { value: c.zone },
        });
        assert.equal(res.status, 200);
      };
      const [reportContact, slaContact, openContact, shiftContact] = await contacts(t, a.id, 4);
      const early = c.zone === "America/Manaus";
      // Manaus: the ticket is stored while the company is still on São Paulo's clock.
      if (!early) await setZone(a);
      for (const at of c.reportAt) await addTicket(t, a.id, { contactId: reportContact, at });
      if (early) await setZone(a);

      // Report days, the heat map and the summary, on the company's clock.
      const query = `dateFrom=${c.range[0]}&dateTo=${c.range[1]}`;
      const days = await (await t.request("GET", `/api/reports/days?${query}`, {
        token: a.admin.token,
      })).json() as { range: { timeZone: string }; rows: { day: string; opened: number }[] };
      assert.equal(days.range.timeZone, c.zone);
      const opened = Object.fromEntries(
        days.rows.filter((r) => r.opened > 0).map((r) => [r.day, r.opened]),
      );
      assert.deepEqual(opened, { [c.reportDay]: c.reportAt.length });
      const heat = await (await t.request("GET", `/api/reports/heatmap?${query}`, {
        token: a.admin.token,
      })).json() as { cells: number[][] };
      const lit = heat.cells.flatMap((row, d) => row.flatMap((n, h) => n > 0 ? [`${d}-${h}`] : []));
      assert.deepEqual(lit, c.heat.hours.map((h) => `${c.heat.weekday}-${h}`));
      // Company B keeps the default zone: the same instants, São Paulo's days.
      const bContacts = await contacts(t, b.id, c.reportAt.length, "55219");
      for (const [i, at] of c.reportAt.entries()) {
        await addTicket(t, b.id, { contactId: bContacts[i], at });
      }
      const bDays = await (await t.request("GET", `/api/reports/days?${query}`, {
        token: b.admin.token,
      })).json() as { range: { timeZone: string }; rows: { day: string; opened: number }[] };
      assert.equal(bDays.range.timeZone, "America/Sao_Paulo");
      assert.notDeepEqual(
        Object.fromEntries(bDays.rows.filter((r) => r.opened > 0).map((r) => [r.day, r.opened])),
        opened,
      );

      // The scene: a connection, a queue with targets and hours, one with hours that
      // distributes, one without hours whose attendant works 17:00-18:00. Queue hours count
      // only when the company manages them per queue (issue 50 item 1).
      const perQueue = await t.request("PUT", "/api/settings/scheduleType", {
        token: a.admin.token,
        body: { value: "queue" },
      });
      assert.equal(perQueue.status, 200);
      await addWhatsapp(t, a.id, "Conexão", { isDefault: true });
      const policy = async (queueId: number, body: Record<string, unknown>) => {
        const res = await t.request("PUT", `/api/queue/${queueId}`, {
          token: a.admin.token,
          body,
        });
        assert.equal(res.status, 200, await res.text());
      };
      const slaQueue = await addQueue(t, a.id, "Prazo");
      await policy(slaQueue, {
        distribution: "off",
        firstResponseMinutes: 60,
        schedules: defaultWorkingHours(),
      });
      const openQueue = await addQueue(t, a.id, "Expediente");
      await policy(openQueue, { distribution: "least_busy", schedules: defaultWorkingHours() });
      const shiftQueue = await addQueue(t, a.id, "Plantão");
      await policy(shiftQueue, { distribution: "least_busy" });
      const opener = await createUser(t, a.id, {
        name: "Abre",
        email: `opener-${a.id}@zone.test`,
        queueIds: [openQueue],
      });
      const night = await createUser(t, a.id, {
        name: "Turno",
        email: `shift-${a.id}@zone.test`,
        queueIds: [shiftQueue],
      });
      const shift = await t.request("PUT", `/api/users/${night.id}`, {
        token: a.admin.token,
        body: { startWork: "17:00", endWork: "18:00" },
      });
      assert.equal(shift.status, 200);

      // SLA: Saturday 11:30 local, 60 minutes of working time: due Monday 08:30 local.
      t.clock.set(c.slaAt);
      await fresh(t, a.admin);
      const slaTicket = await newPending(t, a.admin.token, slaContact, slaQueue);
      const dated = await eventually(async () => {
        const row = await ticketRow(t, slaTicket.id);
        return row.firstResponseDueAt !== null && row;
      }, { what: "due instant set" });
      assert.equal(dated.firstResponseDueAt, c.slaDue);
      // The dashboard's hourly chart: today's ticket at 11 local.
      const hourly = await (await t.request("GET", "/api/dashboard/hourly", {
        token: a.admin.token,
      })).json() as { hourly: { hour: number; count: number }[] };
      assert.deepEqual(hourly.hourly.filter((h) => h.count > 0).map((h) => h.hour), [11]);

      // A queue's hours: open at this local time, so its online attendant gets the ticket.
      t.clock.set(c.openAt);
      await fresh(t, a.admin);
      await fresh(t, opener);
      sockets.push(await goOnline(t, s.wsUrl, opener));
      const openTicket = await newPending(t, a.admin.token, openContact, openQueue);
      await eventually(async () => (await ticketRow(t, openTicket.id)).userId === opener.id, {
        what: "given within the queue's local hours",
      });

      // A user's shift, 17:00-18:00 local: the ticket of 17:30 is theirs.
      t.clock.set(c.shiftAt);
      await fresh(t, a.admin);
      await fresh(t, night);
      sockets.push(await goOnline(t, s.wsUrl, night));
      const shiftTicket = await newPending(t, a.admin.token, shiftContact, shiftQueue);
      await eventually(async () => (await ticketRow(t, shiftTicket.id)).userId === night.id, {
        what: "given within the attendant's local shift",
      });
    } finally {
      for (const socket of sockets) await socket.close();
      t.deps.hub.closeAll();
      await s.close();
      await t.close();
    }
  });
}
