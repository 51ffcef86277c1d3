import type { TestApp, TestUser } from "../helpers/app.ts";
import { createTestApp, createUser } from "../helpers/app.ts";
import { eventually } from "../helpers/eventually.ts";
import { serve, TestSocket } from "../helpers/server.ts";
import { addContact, addQueue, addWhatsapp } from "../helpers/tickets.ts";

/**
 * A company scene for distribution (issue 26): a queue with no working hours (it works around
 * the clock), a default connection, and attendants in the queue.
 */
export async function distributionScene(
  t: TestApp,
  company: { id: number; admin: TestUser },
  options: {
    distribution: "off" | "round_robin" | "least_busy";
    attendants: number;
    capacity?: number | null;
    targets?: { firstResponseMinutes?: number | null; resolutionMinutes?: number | null };
    tag?: string;
  },
) {
  const tag = options.tag ?? "q";
  const queueId = await addQueue(t, company.id, `Fila ${tag}`);
  const res = await t.request("PUT", `/api/queue/${queueId}`, {
    token: company.admin.token,
    body: { distribution: options.distribution, ...options.targets },
  });
  if (res.status !== 200) throw new Error(`queue policy: ${res.status} ${await res.text()}`);
  await addWhatsapp(t, company.id, `Conexão ${tag}`, { isDefault: true });
  const attendants: TestUser[] = [];
  for (let i = 0; i < options.attendants; i++) {
    const user = await createUser(t, company.id, {
      name: `Atendente ${tag} ${i + 1}`,
      email: `att${i + 1}-${tag}-${company.id}@dist.test`,
      queueIds: [queueId],
    });
    if (options.capacity !== undefined) {
      const set = await t.request("PUT", `/api/users/${user.id}`, {
        token: company.admin.token,
        body: { maxOpenTickets: options.capacity },
      });
      if (set.status !== 200) throw new Error(`capacity: ${set.status} ${await set.text()}`);
    }
    attendants.push(user);
  }
  return { queueId, attendants };
}

/** The company manages working hours per queue: the queues' hours count (issue 50). */
export async function hoursPerQueue(t: TestApp, token: string, value = "queue") {
  const res = await t.request("PUT", "/api/settings/scheduleType", { token, body: { value } });
  if (res.status !== 200) throw new Error(`scheduleType: ${res.status} ${await res.text()}`);
}

/** Opens the user's browser socket and waits until the database says they are online. */
export async function goOnline(t: TestApp, wsUrl: string, user: TestUser): Promise<TestSocket> {
  const socket = await TestSocket.connect(wsUrl, user.token);
  await eventually(async () => (await userRow(t, user.id)).online === 1, {
    what: `user ${user.id} online`,
  });
  return socket;
}

export async function userRow(t: TestApp, id: number) {
  return await t.deps.db.selectFrom("users").selectAll().where("id", "=", id)
    .executeTakeFirstOrThrow();
}

/** `count` contacts of the company. */
export async function contacts(t: TestApp, companyId: number, count: number, prefix = "55119") {
  const ids: number[] = [];
  for (let i = 0; i < count; i++) {
    ids.push(
      await addContact(t, companyId, `Cliente ${i}`, `${prefix}${String(i).padStart(6, "0")}`),
    );
  }
  return ids;
}

/** A pending ticket entering the queue through POST /api/tickets (the API's way in). */
export async function newPending(
  t: TestApp,
  token: string,
  contactId: number,
  queueId: number,
): Promise<{ id: number }> {
  const res = await t.request("POST", "/api/tickets", {
    token,
    body: { contactId, queueId, status: "pending" },
  });
  if (res.status !== 200 && res.status !== 201) {
    throw new Error(`ticket: ${res.status} ${await res.text()}`);
  }
  return await res.json();
}

/** Who holds each of these tickets (null: waiting). */
export async function holders(t: TestApp, ids: number[]) {
  const rows = await t.deps.db.selectFrom("tickets").select(["id", "userId", "status"])
    .where("id", "in", ids).execute();
  return new Map(rows.map((r) => [r.id, r]));
}

/** A fresh app served on a port (the attendants' sockets need it); always closed. */
export async function served<T>(
  fn: (t: Awaited<ReturnType<typeof createTestApp>>, wsUrl: string) => Promise<T>,
) {
  const t = await createTestApp();
  const s = serve(t);
  try {
    return await fn(t, s.wsUrl);
  } finally {
    t.deps.hub.closeAll();
    await s.close();
    await t.close();
  }
}
