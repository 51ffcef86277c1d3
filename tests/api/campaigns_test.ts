import assert from "node:assert/strict";
import { createTestApp, twoCompanies } from "../helpers/app.ts";
import { connectSimulator } from "../whatsapp/helpers.ts";
import { dispatchTick } from "../../server/campaigns/dispatcher.ts";
import { checkPendingNumbers } from "../../server/campaigns/number_check.ts";
import { editableParts } from "../../contract/campaign_rules.ts";
import { createCampaign, createList, saveSettings, seedList } from "../campaigns/helpers.ts";

Deno.test("campaign rules - editable when INATIVA or PROGRAMADA more than 1 hour ahead", () => {
  const now = new Date("2026-11-22T12:00:00Z");
  const at = (ms: number) => new Date(now.getTime() + ms).toISOString();
  assert.equal(editableParts({ status: "INATIVA", scheduledAt: null }, now), "all");
  assert.equal(editableParts({ status: "PROGRAMADA", scheduledAt: at(3_600_001) }, now), "all");
  assert.equal(editableParts({ status: "PROGRAMADA", scheduledAt: at(3_600_000) }, now), "none");
  assert.equal(editableParts({ status: "EM_ANDAMENTO", scheduledAt: null }, now), "none");
  assert.equal(editableParts({ status: "CANCELADA", scheduledAt: null }, now), "messages");
  assert.equal(editableParts({ status: "FINALIZADA", scheduledAt: null }, now), "none");
});

Deno.test("campaigns - status machine, editing rules, bad input and isolation", async (t) => {
  const app = await createTestApp();
  try {
    const { a, b } = await twoCompanies(app);
    const wid = await connectSimulator(app, a);
    const widB = await connectSimulator(app, b);
    const listId = await seedList(app, a, 3);
    const listB = await createList(app, b, "Lista B");
    const token = a.admin.token;

    await t.step("settings: defaults, the options of section 9, saved values", async () => {
      const res = await app.request("GET", "/api/campaign-settings", { token });
      const settings = Object.fromEntries(
        (await res.json()).map((s: { key: string; value: unknown }) => [s.key, s.value]),
      );
      assert.equal(settings.messageInterval, 20);
      assert.equal(settings.longerIntervalAfter, 20);
      assert.equal(settings.greaterInterval, 60);
      assert.deepEqual(settings.optOutWords, ["SAIR", "PARAR", "STOP"]);
      const bad = await app.request("POST", "/api/campaign-settings", {
        token,
        body: { settings: { messageInterval: 7 } },
      });
      assert.equal(bad.status, 400);
      const dup = await app.request("POST", "/api/campaign-settings", {
        token,
        body: { settings: { variables: [{ key: "a", value: "1" }, { key: "a", value: "2" }] } },
      });
      assert.equal(dup.status, 400);
      await saveSettings(app, a, { variables: [{ key: "loja", value: "Loja Centro" }] });
      const other = await (await app.request("GET", "/api/campaign-settings", {
        token: b.admin.token,
      })).json();
      assert.deepEqual(other.find((s: { key: string }) => s.key === "variables").value, []);
    });

    await t.step("created INATIVA without a schedule, PROGRAMADA with one", async () => {
      const draft = await createCampaign(app, a, { message1: "", confirmationMessage1: "" });
      assert.equal(draft.status, "INATIVA");
      assert.equal(draft.message1, null);
      assert.equal(draft.confirmationMessage1, null);
      const local = "2026-11-23 09:30:00"; // America/Sao_Paulo wall clock
      const scheduled = await createCampaign(app, a, {
        whatsappId: wid,
        contactListId: listId,
        scheduledAt: local,
      });
      assert.equal(scheduled.status, "PROGRAMADA");
      assert.equal(scheduled.scheduledAt, "2026-11-23T12:30:00.000Z");
      assert.equal(scheduled.whatsapp.id, wid);
      assert.equal(scheduled.contactList.id, listId);
    });

    await t.step("scheduling needs a connection, recipients and a message", async () => {
      const noConnection = await app.request("POST", "/api/campaigns", {
        token,
        body: {
          name: "Sem conexão",
          message1: "x",
          contactListId: listId,
          scheduledAt: "2026-12-01 10:00:00",
        },
      });
      assert.equal(noConnection.status, 400);
      assert.deepEqual(Object.keys((await noConnection.json()).fields), ["whatsappId"]);
      const empty = await createList(app, a, "Vazia");
      const noRecipients = await app.request("POST", "/api/campaigns", {
        token,
        body: {
          name: "Ninguém",
          message1: "x",
          whatsappId: wid,
          contactListId: empty,
          scheduledAt: "2026-12-01 10:00:00",
        },
      });
      assert.equal(noRecipients.status, 400);
      assert.equal((await noRecipients.json()).error, "ERR_CAMPAIGN_NO_RECIPIENTS");
      const badDate = await app.request("POST", "/api/campaigns", {
        token,
        body: { name: "Data", scheduledAt: "amanhã" },
      });
      assert.equal(badDate.status, 400);
      const shortName = await app.request("POST", "/api/campaigns", { token, body: { name: "x" } });
      assert.equal(shortName.status, 400);
      // Nothing half-written.
      const count = await app.deps.db.selectFrom("campaigns").select((eb) =>
        eb.fn.countAll<number>().as("n")
      ).executeTakeFirstOrThrow();
      assert.equal(Number(count.n), 2);
    });

    await t.step("another company's connection, list, tag or file list is missing", async () => {
      for (
        const [field, value, code] of [
          ["whatsappId", widB, "ERR_NO_WAPP_FOUND"],
          ["contactListId", listB, "ERR_NO_CONTACT_LIST_FOUND"],
          ["tagListId", 9999, "ERR_NO_TAG_FOUND"],
          ["fileListId", 9999, "ERR_NO_FILE_LIST_FOUND"],
        ] as const
      ) {
        const res = await app.request("POST", "/api/campaigns", {
          token,
          body: { name: "Alheia", [field]: value },
        });
        assert.equal(res.status, 404, field);
        assert.equal((await res.json()).error, code);
      }
    });

    await t.step(
      "running: not editable, cancel stops it, restart resumes, then FINALIZADA",
      async () => {
        await saveSettings(app, a, {
          messageInterval: 0,
          longerIntervalAfter: 0,
          greaterInterval: 0,
        });
        const c = await createCampaign(app, a, {
          whatsappId: wid,
          contactListId: listId,
          scheduledAt: app.clock.now().toISOString(),
          message1: "Oi {nome}, visite a {loja}",
        });
        // Within the hour before its schedule a PROGRAMADA campaign is frozen.
        const frozen = await app.request("PUT", `/api/campaigns/${c.id}`, {
          token,
          body: { name: "Mudou" },
        });
        assert.equal(frozen.status, 400);
        assert.equal((await frozen.json()).error, "ERR_CAMPAIGN_NOT_EDITABLE");
        const restartEarly = await app.request("POST", `/api/campaigns/${c.id}/restart`, { token });
        assert.equal(restartEarly.status, 409);
        // Numbers checked, then the connection goes offline: the campaign starts but its
        // messages wait in the outbox.
        await checkPendingNumbers(app.deps);
        await app.deps.sessions.remove(a.id, wid, false);
        await dispatchTick(app.deps);
        let view = await (await app.request("GET", `/api/campaigns/${c.id}`, { token })).json();
        assert.equal(view.status, "EM_ANDAMENTO");
        const del = await app.request("DELETE", `/api/campaigns/${c.id}`, { token });
        assert.equal((await del.json()).error, "ERR_CAMPAIGN_NOT_EDITABLE");
        const cancel = await app.request("POST", `/api/campaigns/${c.id}/cancel`, { token });
        assert.equal((await cancel.json()).status, "CANCELADA");
        // A cancelled campaign: messages may change, nothing else.
        const rename = await app.request("PUT", `/api/campaigns/${c.id}`, {
          token,
          body: { name: "Outro nome" },
        });
        assert.equal(rename.status, 400);
        const edit = await app.request("PUT", `/api/campaigns/${c.id}`, {
          token,
          body: { message1: "Oi {nome}, passe na {loja}" },
        });
        assert.equal(edit.status, 200);
        await app.deps.sessions.start(a.id, wid);
        await dispatchTick(app.deps);
        await app.deps.sessions.outbox.idle();
        const sentWhileCancelled = await app.deps.db.selectFrom("simulator_sent").selectAll()
          .where("whatsappId", "=", wid).execute();
        assert.equal(sentWhileCancelled.length, 0);
        const restart = await app.request("POST", `/api/campaigns/${c.id}/restart`, { token });
        assert.equal((await restart.json()).status, "EM_ANDAMENTO");
        for (let i = 0; i < 10 && view.status !== "FINALIZADA"; i++) {
          await dispatchTick(app.deps);
          await app.deps.sessions.outbox.idle();
          view = await (await app.request("GET", `/api/campaigns/${c.id}`, { token })).json();
        }
        assert.equal(view.status, "FINALIZADA");
        assert.equal(view.stats.delivered, 3);
        const sent = await app.deps.db.selectFrom("simulator_sent").select("body")
          .where("whatsappId", "=", wid).orderBy("id").execute();
        // Texts were resolved when the campaign started (the settings' variable {loja} included).
        assert.deepEqual(sent.map((s) => s.body), [
          "Oi Pessoa 0, visite a Loja Centro",
          "Oi Pessoa 1, visite a Loja Centro",
          "Oi Pessoa 2, visite a Loja Centro",
        ]);
      },
    );

    await t.step(
      "another company can neither read, change, cancel nor hear a campaign",
      async () => {
        const page = await (await app.request("GET", "/api/campaigns", { token })).json();
        assert.ok(page.records.length >= 3);
        assert.equal(typeof page.hasMore, "boolean");
        const id = page.records[0].id;
        const other = b.admin.token;
        for (
          const [method, path, body] of [
            ["GET", `/api/campaigns/${id}`],
            ["PUT", `/api/campaigns/${id}`, { message1: "x" }],
            ["DELETE", `/api/campaigns/${id}`],
            ["POST", `/api/campaigns/${id}/cancel`],
            ["POST", `/api/campaigns/${id}/restart`],
            ["DELETE", `/api/campaigns/${id}/media-upload`],
          ] as const
        ) {
          const res = await app.request(method, path, { token: other, body });
          assert.equal(res.status, 404, `${method} ${path}`);
          assert.equal((await res.json()).error, "ERR_NO_CAMPAIGN_FOUND");
        }
        const listOfB = await (await app.request("GET", "/api/campaigns", { token: other })).json();
        assert.equal(listOfB.records.length, 0);
        const user = await app.request("GET", "/api/campaigns", { token: a.user.token });
        assert.equal(user.status, 403);
      },
    );
  } finally {
    await app.close();
  }
});
