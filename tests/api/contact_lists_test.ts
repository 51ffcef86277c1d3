import assert from "node:assert/strict";
import { createCompany, createTestApp, twoCompanies } from "../helpers/app.ts";
import { connectSimulator, setSetting } from "../whatsapp/helpers.ts";
import { checkPendingNumbers } from "../../server/campaigns/number_check.ts";
import { createList, numbers, uploadList, xlsxFile } from "../campaigns/helpers.ts";

Deno.test("contact lists - CRUD, items, import report, number check and isolation", async (t) => {
  const app = await createTestApp();
  try {
    const { a, b } = await twoCompanies(app);
    const listId = await createList(app, a);

    await t.step("a list is created, renamed, read and paged with contactsCount", async () => {
      const bad = await app.request("POST", "/api/contact-lists", {
        token: a.admin.token,
        body: { name: "x" },
      });
      assert.equal(bad.status, 400);
      assert.equal((await bad.json()).error, "ERR_VALIDATION");
      const put = await app.request("PUT", `/api/contact-lists/${listId}`, {
        token: a.admin.token,
        body: { name: "Clientes VIP" },
      });
      assert.equal(put.status, 200);
      const page = await (await app.request("GET", "/api/contact-lists?searchParam=vip", {
        token: a.admin.token,
      })).json();
      assert.deepEqual(page.records.map((r: { name: string }) => r.name), ["Clientes VIP"]);
      assert.equal(page.records[0].contactsCount, 0);
      assert.equal(page.hasMore, false);
    });

    await t.step("items: normalised number, duplicates refused, search, edit", async () => {
      const res = await app.request("POST", "/api/contact-list-items", {
        token: a.admin.token,
        body: { name: "Ana", number: "+55 (11) 98888-7777", email: "", contactListId: listId },
      });
      assert.equal(res.status, 201, await res.clone().text());
      const item = await res.json();
      assert.equal(item.number, "5511988887777");
      assert.equal(item.isWhatsappValid, null);
      const again = await app.request("POST", "/api/contact-list-items", {
        token: a.admin.token,
        body: { name: "Ana 2", number: "5511988887777", contactListId: listId },
      });
      assert.equal(again.status, 409);
      assert.equal((await again.json()).error, "ERR_DUPLICATED_CONTACT");
      const badEmail = await app.request("POST", "/api/contact-list-items", {
        token: a.admin.token,
        body: { name: "Bia", number: "5511988886666", email: "no", contactListId: listId },
      });
      assert.equal(badEmail.status, 400);
      const edit = await app.request("PUT", `/api/contact-list-items/${item.id}`, {
        token: a.admin.token,
        body: { name: "Ana Maria" },
      });
      assert.equal((await edit.json()).name, "Ana Maria");
      const page = await (await app.request(
        "GET",
        `/api/contact-list-items?contactListId=${listId}&searchParam=maria`,
        { token: a.admin.token },
      )).json();
      assert.equal(page.contacts.length, 1);
      // Another company's list is missing, whatever the id.
      const other = await app.request("POST", "/api/contact-list-items", {
        token: b.admin.token,
        body: { name: "Intrusa", number: "5511988885555", contactListId: listId },
      });
      assert.equal(other.status, 404);
      assert.equal((await other.json()).error, "ERR_NO_CONTACT_LIST_FOUND");
      for (
        const [method, path] of [
          ["GET", `/api/contact-list-items/${item.id}`],
          [
            "DELETE",
            `/api/contact-list-items/${item.id}`,
          ],
          ["GET", `/api/contact-lists/${listId}`],
          ["DELETE", `/api/contact-lists/${listId}`],
          [
            "GET",
            `/api/contact-list-items?contactListId=${listId}`,
          ],
        ]
      ) {
        const res = await app.request(method, path, { token: b.admin.token });
        assert.equal(res.status, 404, `${method} ${path}`);
      }
      // Deleting an item is contacts-page:deleteContact: admins only.
      const byUser = await app.request("DELETE", `/api/contact-list-items/${item.id}`, {
        token: a.user.token,
      });
      assert.equal(byUser.status, 403);
    });

    await t.step("an import answers per row; a second run adds nothing", async () => {
      const good = numbers(3, 100);
      const file = await xlsxFile([
        ["nome", "numero", "email"],
        ["Caio", good[0], "caio@x.com"],
        ["Duda", good[1], ""],
        ["Eva", "12", ""],
        ["Fabi", good[2], "not-an-email"],
        ["Gil", good[1], ""],
        ["Hugo", "5511988887777", ""],
      ]);
      const { status, body } = await uploadList(app, a, listId, file);
      assert.equal(status, 200, JSON.stringify(body));
      assert.equal(body.total, 6);
      assert.equal(body.created, 2);
      assert.equal(body.unchanged, 1); // Hugo's number was already in the list
      assert.deepEqual(
        body.skipped.map((s: { row: number; code: string }) => [s.row, s.code]),
        [[4, "ERR_VALIDATION"], [5, "ERR_VALIDATION"], [6, "ERR_DUPLICATED_CONTACT"]],
      );
      const rerun = await uploadList(app, a, listId, file);
      assert.equal(rerun.body.created, 0);
      const list = await (await app.request("GET", `/api/contact-lists/${listId}`, {
        token: a.admin.token,
      })).json();
      assert.equal(list.contactsCount, 3);
    });

    await t.step("files that are not spreadsheets are refused and write nothing", async () => {
      const csv = await uploadList(app, a, listId, new File(["name,number\n"], "x.csv"));
      assert.equal(csv.status, 400);
      assert.equal(csv.body.error, "ERR_VALIDATION");
      const fake = await uploadList(app, a, listId, new File(["not a zip"], "x.xlsx"));
      assert.equal(fake.status, 400);
      assert.equal(fake.body.error, "ERR_VALIDATION");
      // Starts like a zip, is not one: exceljs refuses it on the reader thread.
      const broken = new Uint8Array([0x50, 0x4b, 0x03, 0x04, ...new Array(200).fill(7)]);
      const zip = await uploadList(app, a, listId, new File([broken], "x.xlsx"));
      assert.equal(zip.status, 400);
      assert.equal(zip.body.error, "ERR_VALIDATION");
      const legacy = await uploadList(app, a, listId, new File(["\xD0\xCF\x11\xE0"], "x.xls"));
      assert.equal(legacy.status, 400);
      assert.equal(legacy.body.error, "ERR_VALIDATION");
      const other = await uploadList(app, b, listId, await xlsxFile([["name", "number"]]));
      assert.equal(other.status, 404);
    });

    await t.step("the example spreadsheet imports back through the same reader", async () => {
      const res = await app.request("GET", "/api/contact-lists/example.xlsx", {
        token: a.admin.token,
      });
      assert.equal(res.status, 200);
      const example = new File([await res.arrayBuffer()], "exemplo.xlsx");
      const target = await createList(app, a, "Exemplo");
      const { body } = await uploadList(app, a, target, example);
      assert.equal(body.created, 2, JSON.stringify(body));
      assert.deepEqual(body.skipped, []);
    });

    await t.step(
      "numbers are checked through the connection: ...404 is not on WhatsApp",
      async () => {
        await app.request("POST", "/api/contact-list-items", {
          token: a.admin.token,
          body: { name: "Sem Zap", number: "5511987650404", contactListId: listId },
        });
        assert.equal(await checkPendingNumbers(app.deps), 0); // no connection yet: left unchecked
        await connectSimulator(app, a);
        assert.ok(await checkPendingNumbers(app.deps) >= 5);
        const page = await (await app.request(
          "GET",
          `/api/contact-list-items?contactListId=${listId}`,
          { token: a.admin.token },
        )).json();
        const valid = Object.fromEntries(
          page.contacts.map((c: { number: string; isWhatsappValid: boolean }) => [
            c.number,
            c.isWhatsappValid,
          ]),
        );
        assert.equal(valid["5511987650404"], false);
        assert.equal(valid["5511988887777"], true);
      },
    );

    await t.step("the plan flag and campaignsEnabled gate every route", async () => {
      await setSetting(app, a.id, "campaignsEnabled", "false");
      const off = await app.request("GET", "/api/contact-lists", { token: a.admin.token });
      assert.equal(off.status, 403);
      assert.equal((await off.json()).error, "ERR_PLAN_FEATURE_DISABLED");
      await setSetting(app, a.id, "campaignsEnabled", "true");
      const noPlan = await createCompany(app, "Gamma", { plan: { useCampaigns: 0 } });
      const res = await app.request("GET", "/api/contact-list-items?contactListId=1", {
        token: noPlan.admin.token,
      });
      assert.equal(res.status, 403);
      assert.equal((await res.json()).error, "ERR_PLAN_FEATURE_DISABLED");
    });
  } finally {
    await app.close();
  }
});
