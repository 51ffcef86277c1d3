import assert from "node:assert/strict";
import { eventually } from "../helpers/eventually.ts";
import { messagesPost } from "../fakes/graph.ts";
import { type CloudSetup, postWebhook, withCloud } from "./cloud_helpers.ts";
import { createOption, createQueue } from "./helpers.ts";

/**
 * Issue 45: the chatbot's menus go as reply buttons (≤ 3) or a list (≤ 10 rows) on a channel
 * with `interactive`; a tap answers the bot like the typed number.
 */
const ANA = "5511988887777";
let seq = 0;

async function contactSends(s: CloudSetup, content: Record<string, unknown>) {
  const at = String(Math.floor(s.t.clock.now().getTime() / 1000));
  const id = `wamid.M${++seq}`;
  const res = await postWebhook(
    s,
    messagesPost(s.graph.phoneNumberId, {
      contacts: [{ profile: { name: "Ana" }, wa_id: ANA }],
      messages: [{ from: ANA, id, timestamp: at, ...content }],
    }),
  );
  assert.equal(res.status, 200);
  await eventually(
    async () =>
      (await s.t.deps.db.selectFrom("messages").select("id").where("wid", "=", id)
        .executeTakeFirst()) !== undefined,
    { what: `${id} stored` },
  );
}

type Interactive = {
  type: string;
  body: { text: string };
  action: {
    buttons?: { reply: { id: string; title: string } }[];
    sections?: { rows: { id: string; title: string }[] }[];
  };
};

const interactives = (s: CloudSetup) =>
  s.graph.sends().filter((b) => b.type === "interactive").map((b) => b.interactive as Interactive);

Deno.test("cloud menus - the queue menu goes as buttons, a tap routes like the typed number; a longer option menu goes as a list", async () => {
  await withCloud(async (s) => {
    const { t, a } = s;
    const sales = await createQueue(t, a.id, { name: "Vendas" });
    const support = await createQueue(t, a.id, {
      name: "Suporte",
      greetingMessage: "Suporte aqui.",
    });
    for (let i = 1; i <= 5; i++) {
      await createOption(t, a.id, support, { title: `Assunto ${i}`, option: String(i) });
    }
    const saved = await t.request("PUT", `/api/whatsapp/${s.whatsappId}`, {
      token: a.admin.token,
      body: { queueIds: [sales, support], greetingMessage: "Olá! Escolha:" },
    });
    assert.equal(saved.status, 200, await saved.clone().text());

    await contactSends(s, { type: "text", text: { body: "oi" } });
    const [buttons] = await eventually(() => {
      const found = interactives(s);
      return found.length === 1 ? found : undefined;
    }, { what: "the queue menu sent as buttons" });
    assert.equal(buttons.type, "button");
    assert.equal(buttons.body.text, "Olá! Escolha:");
    assert.deepEqual(buttons.action.buttons?.map((b) => b.reply), [
      { id: "1", title: "Vendas" },
      { id: "2", title: "Suporte" },
    ]);
    // Our copy of the menu keeps its text (the attendant reads what the contact was offered).
    const copy = await t.deps.db.selectFrom("messages").select("body").where("fromMe", "=", 1)
      .executeTakeFirstOrThrow();
    assert.match(copy.body, /\*2\* - Suporte/);

    // The tap answers "2" (its id), though the contact's bubble shows the title.
    await contactSends(s, {
      type: "interactive",
      interactive: { type: "button_reply", button_reply: { id: "2", title: "Suporte" } },
    });
    const ticket = await eventually(async () => {
      const row = await t.deps.db.selectFrom("tickets").select(["queueId"])
        .where("companyId", "=", a.id).executeTakeFirstOrThrow();
      return row.queueId === support ? row : undefined;
    }, { what: "the ticket in Suporte" });
    assert.equal(ticket.queueId, support);
    const tapped = await t.deps.db.selectFrom("messages").select("body")
      .where("wid", "=", `wamid.M${seq}`).executeTakeFirstOrThrow();
    assert.equal(tapped.body, "Suporte");

    // Five options: a list of five rows.
    const list = await eventually(() => interactives(s)[1], { what: "the option menu" });
    assert.equal(list.type, "list");
    assert.equal(list.body.text, "Suporte aqui.");
    assert.deepEqual(
      list.action.sections?.[0].rows.map((r) => r.id),
      ["1", "2", "3", "4", "5"],
    );
  });
});
