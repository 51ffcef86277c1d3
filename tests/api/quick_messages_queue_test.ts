import assert from "node:assert/strict";
import { createUser, twoCompanies, withApp } from "../helpers/app.ts";
import { addQueue, scene } from "../helpers/tickets.ts";
import { connectSimulator, phoneSends, sentBy, setSetting } from "../whatsapp/helpers.ts";
import { eventually } from "../helpers/eventually.ts";

type Answer = { id: number; shortcode: string; queueId: number | null };

Deno.test("quick answers per queue - offered after '/' only to that queue's attendants; the queue is checked against the company", () =>
  withApp(async (t) => {
    const { a, b } = await twoCompanies(t);
    const s = await scene(t, a); // a.user attends q1
    const outsider = await createUser(t, a.id, {
      name: "Otto",
      email: "otto@alpha.test",
      queueIds: [s.q2],
    });
    const made = await t.request("POST", "/api/quick-messages", {
      token: a.admin.token,
      body: { shortcode: "vendas", message: "Tabela de preços", geral: true, queueId: s.q1 },
    });
    assert.equal(made.status, 201, await made.clone().text());
    const answer = await made.json() as Answer;
    assert.equal(answer.queueId, s.q1);

    const choices = async (token: string) => {
      const res = await t.request("GET", "/api/quick-messages/list", { token });
      assert.equal(res.status, 200);
      return ((await res.json()) as Answer[]).map((q) => q.shortcode);
    };
    assert.deepEqual(await choices(a.user.token), ["vendas"]);
    assert.deepEqual(await choices(outsider.token), []);
    const read = await t.request("GET", `/api/quick-messages/${answer.id}`, {
      token: outsider.token,
    });
    assert.equal(read.status, 404);

    // Another company's queue (and a missing one) answers like a missing queue.
    const bQueue = await addQueue(t, b.id, "Beta");
    for (const queueId of [bQueue, 999_999]) {
      const res = await t.request("POST", "/api/quick-messages", {
        token: a.admin.token,
        body: { shortcode: "x", queueId },
      });
      assert.equal(res.status, 404);
      assert.equal((await res.json()).error, "ERR_NO_QUEUE_FOUND");
      const put = await t.request("PUT", `/api/quick-messages/${answer.id}`, {
        token: a.admin.token,
        body: { queueId },
      });
      assert.equal(put.status, 404);
    }
    // An attendant names only one of their own queues.
    const notTheirs = await t.request("POST", "/api/quick-messages", {
      token: a.user.token,
      body: { shortcode: "y", queueId: s.q2 },
    });
    assert.equal(notTheirs.status, 403);
    const theirs = await t.request("POST", "/api/quick-messages", {
      token: a.user.token,
      body: { shortcode: "z", queueId: s.q1 },
    });
    assert.equal(theirs.status, 201);

    // Moved to the outsider's queue: it is theirs now, and no longer a.user's... except their own.
    const moved = await t.request("PUT", `/api/quick-messages/${answer.id}`, {
      token: a.admin.token,
      body: { queueId: s.q2 },
    });
    assert.equal(moved.status, 200);
    assert.deepEqual(await choices(outsider.token), ["vendas"]);
    assert.deepEqual(await choices(a.user.token), ["z"]);
  }));

Deno.test("greeting on accept - the company's own text with {{user}} and {{name}}, through the outbound path", () =>
  withApp(async (t) => {
    const { a } = await twoCompanies(t);
    await setSetting(t, a.id, "sendGreetingAccepted", "enabled");
    const saved = await t.request("PUT", "/api/settings/greetingAcceptedMessage", {
      token: a.admin.token,
      body: { value: "Olá {{name}}, aqui é {{user}}. Protocolo {{protocol}}" },
    });
    assert.equal(saved.status, 200, await saved.clone().text());
    const whatsappId = await connectSimulator(t, a);
    const delivery = await phoneSends(t, a.admin.token, whatsappId, {
      from: "5511988887777",
      name: "Maria Souza",
      body: "Oi",
    });
    const ticketId = delivery.ticketId!;
    const accepted = await t.request("PUT", `/api/tickets/${ticketId}`, {
      token: a.admin.token,
      body: { action: "accept" },
    });
    assert.equal(accepted.status, 200);
    const sent = await eventually(async () => {
      const list = await sentBy(t, a.admin.token, whatsappId);
      return list.length === 1 ? list : undefined;
    });
    assert.match(
      sent[0].body,
      new RegExp(`^Olá Maria Souza, aqui é Alpha Admin\\. Protocolo \\d{14}${ticketId}$`),
    );
  }));
