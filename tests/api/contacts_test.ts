import assert from "node:assert/strict";
import ExcelJS from "exceljs";
import { twoCompanies, withApp } from "../helpers/app.ts";
import { insertContact, insertTicket, sockets, withServedApp } from "../helpers/admin_fixtures.ts";

Deno.test("contacts create - normalises the number, keeps extra fields and announces it to the company only", () =>
  withApp(async (t) => {
    const { a, b } = await twoCompanies(t);
    await withServedApp(t, async (wsUrl) => {
      const [sa, sb] = await sockets(wsUrl, a.user.token, b.admin.token);
      const res = await t.request("POST", "/api/contacts", {
        token: a.user.token,
        body: {
          name: "  Ana Souza ",
          number: "(13) 91234-4321",
          email: "Ana@Example.com",
          extraInfo: [{ name: "CPF", value: "123" }],
        },
      });
      assert.equal(res.status, 201);
      const contact = await res.json();
      assert.equal(contact.name, "Ana Souza");
      assert.equal(contact.number, "5513912344321");
      assert.equal(contact.email, "ana@example.com");
      assert.equal(contact.isGroup, false);
      assert.equal(contact.extraInfo.length, 1);
      assert.deepEqual({ ...contact.extraInfo[0], id: 0 }, { id: 0, name: "CPF", value: "123" });
      const row = await t.deps.db.selectFrom("contacts").selectAll().where("id", "=", contact.id)
        .executeTakeFirstOrThrow();
      assert.equal(row.companyId, a.id);
      assert.equal(row.number, "5513912344321");
      const event = await sa.next((e) => e.event === `company-${a.id}-contact`);
      assert.deepEqual(event.data, { action: "create", record: contact, contact });
      await sb.settle();
      assert.equal(sb.events.filter((e) => e.event.endsWith("-contact")).length, 0);
    });
  }));

Deno.test("contacts create - form rules answer ERR_VALIDATION per field", () =>
  withApp(async (t) => {
    const { a } = await twoCompanies(t);
    const res = await t.request("POST", "/api/contacts", {
      token: a.user.token,
      body: { name: "A", number: "1234", email: "not-an-email" },
    });
    assert.equal(res.status, 400);
    const body = await res.json();
    assert.equal(body.error, "ERR_VALIDATION");
    assert.deepEqual(body.fields.name, ["Muito curto!"]);
    assert.deepEqual(body.fields.number, ["Muito curto!"]);
    assert.deepEqual(body.fields.email, ["E-mail inválido"]);
    const empty = await t.request("POST", "/api/contacts", {
      token: a.user.token,
      body: { name: "", number: "5513912344321" },
    });
    assert.deepEqual((await empty.json()).fields.name, ["Obrigatório"]);
    const long = await t.request("POST", "/api/contacts", {
      token: a.user.token,
      body: { name: "x".repeat(51), number: "5513912344321" },
    });
    assert.deepEqual((await long.json()).fields.name, ["Muito longo!"]);
    const count = await t.deps.db.selectFrom("contacts").select((eb) => eb.fn.countAll().as("n"))
      .executeTakeFirstOrThrow();
    assert.equal(Number(count.n), 0);
  }));

Deno.test("contacts create - invalid numbers are ERR_WAPP_INVALID_CONTACT with a clear message", () =>
  withApp(async (t) => {
    const { a } = await twoCompanies(t);
    for (const number of ["5500912344321", "0000 0000 0", "5513abc44321", "+1 000 000 0000"]) {
      const res = await t.request("POST", "/api/contacts", {
        token: a.user.token,
        body: { name: "Ana", number },
      });
      assert.equal(res.status, 400, number);
      const body = await res.json();
      assert.equal(body.error, "ERR_WAPP_INVALID_CONTACT", number);
      assert.match(body.message, /Número inválido/);
    }
    // international numbers with or without "+", and old 8-digit Brazilian mobiles, are accepted
    for (
      const [input, stored] of [
        ["+1 415 555 2671", "14155552671"],
        ["351912345678", "351912345678"],
        ["551187654321", "551187654321"],
      ]
    ) {
      const res = await t.request("POST", "/api/contacts", {
        token: a.user.token,
        body: { name: "Intl", number: input },
      });
      assert.equal(res.status, 201, input);
      assert.equal((await res.json()).number, stored);
    }
  }));

Deno.test("contacts - the same number twice is ERR_DUPLICATED_CONTACT, on create and on update", () =>
  withApp(async (t) => {
    const { a, b } = await twoCompanies(t);
    const first = await t.request("POST", "/api/contacts", {
      token: a.user.token,
      body: { name: "Ana", number: "5513912344321" },
    });
    assert.equal(first.status, 201);
    const again = await t.request("POST", "/api/contacts", {
      token: a.user.token,
      body: { name: "Ana 2", number: "+55 (13) 91234-4321" },
    });
    assert.equal(again.status, 409);
    assert.equal((await again.json()).error, "ERR_DUPLICATED_CONTACT");
    // another company may have the same number
    const other = await t.request("POST", "/api/contacts", {
      token: b.user.token,
      body: { name: "Ana B", number: "5513912344321" },
    });
    assert.equal(other.status, 201);
    const second = await (await t.request("POST", "/api/contacts", {
      token: a.user.token,
      body: { name: "Bia", number: "5513988887777" },
    })).json();
    const clash = await t.request("PUT", `/api/contacts/${second.id}`, {
      token: a.user.token,
      body: { number: "13 91234-4321" },
    });
    assert.equal(clash.status, 409);
    assert.equal((await clash.json()).error, "ERR_DUPLICATED_CONTACT");
    const row = await t.deps.db.selectFrom("contacts").select("number").where("id", "=", second.id)
      .executeTakeFirstOrThrow();
    assert.equal(row.number, "5513988887777");
  }));

Deno.test("contacts list - pages of 20 by name, with count and hasMore", () =>
  withApp(async (t) => {
    const { a, b } = await twoCompanies(t);
    for (let i = 0; i < 25; i++) {
      await insertContact(t, a.id, {
        name: `${i % 2 ? "b" : "B"}contact ${String(i).padStart(2, "0")}`,
      });
    }
    await insertContact(t, a.id, { name: "alice" });
    await insertContact(t, b.id, { name: "Aaron of Beta" });
    const page1 = await (await t.request("GET", "/api/contacts?pageNumber=1", {
      token: a.user.token,
    })).json();
    assert.equal(page1.count, 26);
    assert.equal(page1.hasMore, true);
    assert.equal(page1.contacts.length, 20);
    assert.equal(page1.contacts[0].name, "alice");
    assert.deepEqual(
      page1.contacts.slice(1, 4).map((c: { name: string }) => c.name),
      ["Bcontact 00", "bcontact 01", "Bcontact 02"],
    );
    assert.equal(page1.contacts[0].extraInfo, undefined);
    const page2 = await (await t.request("GET", "/api/contacts?pageNumber=2", {
      token: a.user.token,
    })).json();
    assert.equal(page2.contacts.length, 6);
    assert.equal(page2.hasMore, false);
    assert.ok(
      [...page1.contacts, ...page2.contacts].every((c: { name: string }) =>
        c.name !== "Aaron of Beta"
      ),
    );
  }));

Deno.test("contacts list - searchParam matches name (accents and case ignored), number and email", () =>
  withApp(async (t) => {
    const { a, b } = await twoCompanies(t);
    await insertContact(t, a.id, { name: "José Álvares", number: "5513912344321" });
    await insertContact(t, a.id, {
      name: "Maria",
      number: "5511987650000",
      email: "maria@acme.io",
    });
    await insertContact(t, a.id, { name: "Zé", number: "5521999990000" });
    await insertContact(t, b.id, { name: "José de Beta", number: "5513912344322" });
    const search = async (term: string) => {
      const res = await t.request("GET", `/api/contacts?searchParam=${encodeURIComponent(term)}`, {
        token: a.user.token,
      });
      assert.equal(res.status, 200);
      return (await res.json()).contacts.map((c: { name: string }) => c.name);
    };
    assert.deepEqual(await search("jose"), ["José Álvares"]);
    assert.deepEqual(await search("ALVA"), ["José Álvares"]);
    assert.deepEqual(await search("(13) 91234"), ["José Álvares"]);
    assert.deepEqual(await search("acme"), ["Maria"]);
    assert.deepEqual(await search("Zé"), ["Zé"]);
    assert.deepEqual(await search("nobody"), []);
    assert.deepEqual(await search('"; DROP'), []);
  }));

Deno.test("contacts update - extraInfo replaced: kept ids stay, new ones added, missing ones deleted", () =>
  withApp(async (t) => {
    const { a } = await twoCompanies(t);
    const created = await (await t.request("POST", "/api/contacts", {
      token: a.user.token,
      body: {
        name: "Ana",
        number: "5513912344321",
        extraInfo: [{ name: "CPF", value: "1" }, { name: "Plano", value: "Ouro" }],
      },
    })).json();
    const other = await (await t.request("POST", "/api/contacts", {
      token: a.user.token,
      body: { name: "Bia", number: "5513988887777", extraInfo: [{ name: "X", value: "y" }] },
    })).json();
    const [cpf, plano] = created.extraInfo;
    const res = await t.request("PUT", `/api/contacts/${created.id}`, {
      token: a.user.token,
      body: {
        name: "Ana Maria",
        extraInfo: [
          { id: cpf.id, name: "CPF", value: "2" },
          { name: "Cidade", value: "Santos" },
          { id: other.extraInfo[0].id, name: "Hijack", value: "no" },
        ],
      },
    });
    assert.equal(res.status, 200);
    const updated = await res.json();
    assert.equal(updated.name, "Ana Maria");
    assert.equal(updated.number, "5513912344321");
    assert.deepEqual(
      updated.extraInfo.map((e: { name: string; value: string }) => [e.name, e.value]),
      [["CPF", "2"], ["Cidade", "Santos"], ["Hijack", "no"]],
    );
    assert.equal(updated.extraInfo[0].id, cpf.id);
    const rows = await t.deps.db.selectFrom("contact_custom_fields").selectAll().execute();
    assert.equal(rows.some((r) => r.id === plano.id), false);
    const untouched = rows.find((r) => r.id === other.extraInfo[0].id)!;
    assert.deepEqual([untouched.contactId, untouched.name], [other.id, "X"]);
    // without extraInfo the fields are left alone
    const again = await (await t.request("PUT", `/api/contacts/${created.id}`, {
      token: a.user.token,
      body: { email: "ana@x.io" },
    })).json();
    assert.equal(again.extraInfo.length, 3);
    assert.equal(again.email, "ana@x.io");
  }));

Deno.test("contacts update - a number that came from WhatsApp is not re-validated when unchanged", () =>
  withApp(async (t) => {
    const { a } = await twoCompanies(t);
    const group = await insertContact(t, a.id, {
      name: "Grupo",
      number: "120363025246125486",
      isGroup: 1,
    });
    const res = await t.request("PUT", `/api/contacts/${group.id}`, {
      token: a.user.token,
      body: { name: "Grupo da família", number: "120363025246125486" },
    });
    assert.equal(res.status, 200);
    const body = await res.json();
    assert.equal(body.number, "120363025246125486");
    assert.equal(body.isGroup, true);
  }));

Deno.test("contacts delete - admins only; removes the contact with its tickets and announces both", () =>
  withApp(async (t) => {
    const { a, b } = await twoCompanies(t);
    const contact = await insertContact(t, a.id, { name: "Ana" });
    const ticket = await insertTicket(t, a.id, { contactId: contact.id, status: "pending" });
    await withServedApp(t, async (wsUrl) => {
      const [sa, sb] = await sockets(wsUrl, a.admin.token, b.admin.token);
      sa.send("joinTickets", "pending");
      await sa.settle();
      const denied = await t.request("DELETE", `/api/contacts/${contact.id}`, {
        token: a.user.token,
      });
      assert.equal(denied.status, 403);
      assert.equal((await denied.json()).error, "ERR_NO_PERMISSION");
      const res = await t.request("DELETE", `/api/contacts/${contact.id}`, {
        token: a.admin.token,
      });
      assert.equal(res.status, 204);
      assert.equal(
        await t.deps.db.selectFrom("contacts").select("id").where("id", "=", contact.id)
          .executeTakeFirst(),
        undefined,
      );
      assert.equal(
        await t.deps.db.selectFrom("tickets").select("id").where("id", "=", ticket.id)
          .executeTakeFirst(),
        undefined,
      );
      const ev = await sa.next((e) => e.event === `company-${a.id}-contact`);
      assert.deepEqual(ev.data, { action: "delete", id: contact.id, contactId: contact.id });
      const tev = await sa.next((e) => e.event === `company-${a.id}-ticket`);
      assert.deepEqual(tev.data, { action: "delete", ticketId: ticket.id });
      await sb.settle();
      assert.equal(sb.events.filter((e) => e.event.startsWith(`company-${a.id}`)).length, 0);
    });
    const missing = await t.request("DELETE", `/api/contacts/${contact.id}`, {
      token: a.admin.token,
    });
    assert.equal(missing.status, 404);
    assert.equal((await missing.json()).error, "ERR_NO_CONTACT_FOUND");
  }));

Deno.test("contacts - company B cannot read, list, change or delete company A's contacts", () =>
  withApp(async (t) => {
    const { a, b } = await twoCompanies(t);
    const contact = await insertContact(t, a.id, { name: "Segredo", number: "5513912344321" });
    for (
      const [method, path, body] of [
        ["GET", `/api/contacts/${contact.id}`, undefined],
        ["PUT", `/api/contacts/${contact.id}`, { name: "Hacked" }],
        ["DELETE", `/api/contacts/${contact.id}`, undefined],
      ] as const
    ) {
      const res = await t.request(method, path, { token: b.admin.token, body });
      assert.equal(res.status, 404, `${method} ${path}`);
      assert.equal((await res.json()).error, "ERR_NO_CONTACT_FOUND");
    }
    const list = await (await t.request("GET", "/api/contacts?searchParam=Segredo", {
      token: b.admin.token,
    })).json();
    assert.equal(list.count, 0);
    const picker = await (await t.request("GET", "/api/contacts/list", { token: b.admin.token }))
      .json();
    assert.deepEqual(picker, []);
    const csv = await (await t.request("GET", "/api/contacts/export", { token: b.admin.token }))
      .text();
    assert.equal(csv.includes("Segredo"), false);
    const row = await t.deps.db.selectFrom("contacts").selectAll().where("id", "=", contact.id)
      .executeTakeFirstOrThrow();
    assert.equal(row.name, "Segredo");
  }));

Deno.test("contacts list endpoint - pickers get id, name and number by name, searchable", () =>
  withApp(async (t) => {
    const { a } = await twoCompanies(t);
    await insertContact(t, a.id, { name: "Bruno", number: "5513911112222" });
    await insertContact(t, a.id, { name: "ana", number: "5513933334444" });
    const all = await (await t.request("GET", "/api/contacts/list", { token: a.user.token }))
      .json();
    assert.deepEqual(all.map((c: { name: string }) => c.name), ["ana", "Bruno"]);
    assert.deepEqual(Object.keys(all[0]).sort(), [
      "email",
      "id",
      "isGroup",
      "name",
      "number",
      "profilePicUrl",
    ]);
    const some = await (await t.request("GET", "/api/contacts/list?searchParam=bru", {
      token: a.user.token,
    })).json();
    assert.deepEqual(some.map((c: { name: string }) => c.name), ["Bruno"]);
  }));

Deno.test("contacts export - CSV with header, quoting and formula protection; admins only", () =>
  withApp(async (t) => {
    const { a } = await twoCompanies(t);
    await insertContact(t, a.id, { name: 'Silva, "Zé"', number: "5513912344321", email: "z@x.io" });
    await insertContact(t, a.id, { name: "=HYPERLINK(1)", number: "5513988887777" });
    const denied = await t.request("GET", "/api/contacts/export", { token: a.user.token });
    assert.equal(denied.status, 403);
    const res = await t.request("GET", "/api/contacts/export", { token: a.admin.token });
    assert.equal(res.status, 200);
    assert.match(res.headers.get("content-type") ?? "", /^text\/csv/);
    assert.match(res.headers.get("content-disposition") ?? "", /attachment; filename="contatos-/);
    const bytes = new Uint8Array(await res.arrayBuffer());
    assert.deepEqual([...bytes.slice(0, 3)], [0xef, 0xbb, 0xbf]);
    const text = new TextDecoder().decode(bytes.slice(3));
    assert.equal(
      text,
      'name,number,email\r\n"Silva, ""Zé""",5513912344321,z@x.io\r\n\'=HYPERLINK(1),5513988887777,\r\n',
    );
  }));

function csvFile(text: string, name = "contatos.csv", encoding: "utf-8" | "latin1" = "utf-8") {
  const bytes = encoding === "utf-8"
    ? new TextEncoder().encode(text)
    : Uint8Array.from([...text].map((ch) => ch.charCodeAt(0)));
  const form = new FormData();
  form.append("file", new File([bytes], name, { type: "text/csv" }));
  return form;
}

Deno.test("contacts import - valid rows are imported; broken rows are reported with row, reason and code", () =>
  withApp(async (t) => {
    const { a, b } = await twoCompanies(t);
    await insertContact(t, a.id, { name: "Antigo", number: "5513900001111", email: "old@x.io" });
    await withServedApp(t, async (wsUrl) => {
      const [sa, sb] = await sockets(wsUrl, a.user.token, b.admin.token);
      const csv = [
        "Name,Number,E-mail",
        "Ana,(13) 91234-4321,ana@x.io",
        "B,5513912340000,",
        "Carla,123,",
        "Duda,5500912344321,",
        "Eva,5513955556666,not-email",
        "Fábio,+55 13 91234-4321,",
        "Novo Nome,5513900001111,",
        ",,",
        "Gil,5513977778888,gil@x.io",
      ].join("\n");
      const res = await t.request("POST", "/api/contacts/import", {
        token: a.admin.token,
        body: csvFile(csv),
      });
      assert.equal(res.status, 200);
      const report = await res.json();
      assert.deepEqual(report, {
        total: 8,
        created: 2,
        updated: 1,
        unchanged: 0,
        skipped: [
          { row: 3, code: "ERR_VALIDATION", reason: "name: Too Short!" },
          { row: 4, code: "ERR_VALIDATION", reason: "number: deve ter de 8 a 50 caracteres" },
          {
            row: 5,
            code: "ERR_WAPP_INVALID_CONTACT",
            reason:
              'Número inválido: "5500912344321" não é um número de telefone válido (inclua o DDD ou o código do país)',
          },
          { row: 6, code: "ERR_VALIDATION", reason: "email: Invalid email" },
          {
            row: 7,
            code: "ERR_DUPLICATED_CONTACT",
            reason: "O número 5513912344321 já aparece na linha 2",
          },
        ],
      });
      const rows = await t.deps.db.selectFrom("contacts").select(["name", "number", "email"])
        .where("companyId", "=", a.id).orderBy("number").execute();
      assert.deepEqual(rows, [
        { name: "Novo Nome", number: "5513900001111", email: "old@x.io" },
        { name: "Ana", number: "5513912344321", email: "ana@x.io" },
        { name: "Gil", number: "5513977778888", email: "gil@x.io" },
      ]);
      const ev = await sa.next((e) => e.event === `company-${a.id}-contact`);
      assert.deepEqual(ev.data, { action: "reload" });
      await sb.settle();
      assert.equal(sb.events.filter((e) => e.event.endsWith("-contact")).length, 0);
    });
  }));

Deno.test("contacts import - semicolons, Portuguese headers and Windows-1252 text", () =>
  withApp(async (t) => {
    const { a } = await twoCompanies(t);
    const csv =
      'Nome;Número;Email\r\nJoão da Silva;13 91234-4321;\r\n"Souza; Ana";5513988887777;a@b.io\r\n';
    const res = await t.request("POST", "/api/contacts/import", {
      token: a.admin.token,
      body: csvFile(csv, "lista.csv", "latin1"),
    });
    assert.equal(res.status, 200);
    const report = await res.json();
    assert.equal(report.created, 2);
    assert.deepEqual(report.skipped, []);
    const names = await t.deps.db.selectFrom("contacts").select("name").where(
      "companyId",
      "=",
      a.id,
    )
      .orderBy("name").execute();
    assert.deepEqual(names.map((n) => n.name), ["João da Silva", "Souza; Ana"]);
  }));

Deno.test("contacts import - existing numbers are skipped when updateExisting is false", () =>
  withApp(async (t) => {
    const { a } = await twoCompanies(t);
    await insertContact(t, a.id, { name: "Antigo", number: "5513900001111" });
    const form = csvFile("name,number\nNovo,5513900001111\nOutro,5513900002222\n");
    form.append("updateExisting", "false");
    const report = await (await t.request("POST", "/api/contacts/import", {
      token: a.admin.token,
      body: form,
    })).json();
    assert.equal(report.created, 1);
    assert.equal(report.updated, 0);
    assert.deepEqual(report.skipped, [{
      row: 2,
      code: "ERR_DUPLICATED_CONTACT",
      reason: "Já existe um contato com o número 5513900001111",
    }]);
    const old = await t.deps.db.selectFrom("contacts").select("name")
      .where("number", "=", "5513900001111").executeTakeFirstOrThrow();
    assert.equal(old.name, "Antigo");
  }));

Deno.test("contacts import - XLSX with numeric phone cells", () =>
  withApp(async (t) => {
    const { a } = await twoCompanies(t);
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet("Contatos");
    sheet.addRow(["NOME", "TELEFONE", "EMAIL"]);
    sheet.addRow(["Ana", 5513912344321, "ana@x.io"]);
    sheet.addRow(["Sem número", null, null]);
    sheet.addRow(["Bia", "13 98888-7777", { text: "bia@x.io", hyperlink: "mailto:bia@x.io" }]);
    const buffer = await workbook.xlsx.writeBuffer();
    const form = new FormData();
    form.append("file", new File([new Uint8Array(buffer as ArrayBuffer)], "contatos.xlsx"));
    const res = await t.request("POST", "/api/contacts/import", {
      token: a.admin.token,
      body: form,
    });
    assert.equal(res.status, 200);
    const report = await res.json();
    assert.equal(report.total, 3);
    assert.equal(report.created, 2);
    assert.deepEqual(report.skipped, [{
      row: 3,
      code: "ERR_VALIDATION",
      reason: "number: Required",
    }]);
    const rows = await t.deps.db.selectFrom("contacts").select(["name", "number", "email"])
      .where("companyId", "=", a.id).orderBy("name").execute();
    assert.deepEqual(rows, [
      { name: "Ana", number: "5513912344321", email: "ana@x.io" },
      { name: "Bia", number: "5513988887777", email: "bia@x.io" },
    ]);
  }));

Deno.test("contacts import - refuses files without a number column, without a file, and for non-admins", () =>
  withApp(async (t) => {
    const { a } = await twoCompanies(t);
    const noColumn = await t.request("POST", "/api/contacts/import", {
      token: a.admin.token,
      body: csvFile("foo,bar\n1,2\n"),
    });
    assert.equal(noColumn.status, 400);
    assert.equal((await noColumn.json()).error, "ERR_VALIDATION");
    const noFile = await t.request("POST", "/api/contacts/import", {
      token: a.admin.token,
      body: new FormData(),
    });
    assert.equal(noFile.status, 400);
    const fakeXlsx = new FormData();
    fakeXlsx.append("file", new File(["not a zip"], "x.xlsx"));
    const broken = await t.request("POST", "/api/contacts/import", {
      token: a.admin.token,
      body: fakeXlsx,
    });
    assert.equal(broken.status, 400);
    const user = await t.request("POST", "/api/contacts/import", {
      token: a.user.token,
      body: csvFile("name,number\nAna,5513912344321\n"),
    });
    assert.equal(user.status, 403);
    const count = await t.deps.db.selectFrom("contacts").select((eb) => eb.fn.countAll().as("n"))
      .executeTakeFirstOrThrow();
    assert.equal(Number(count.n), 0);
  }));

Deno.test("contacts export then import - a round trip keeps names with commas and formulas", () =>
  withApp(async (t) => {
    const { a, b } = await twoCompanies(t);
    await insertContact(t, a.id, { name: 'Silva, "Zé"', number: "5513912344321" });
    await insertContact(t, a.id, { name: "=cmd", number: "5513988887777" });
    const csv = await (await t.request("GET", "/api/contacts/export", { token: a.admin.token }))
      .arrayBuffer();
    const form = new FormData();
    form.append("file", new File([csv], "export.csv"));
    const report = await (await t.request("POST", "/api/contacts/import", {
      token: b.admin.token,
      body: form,
    })).json();
    assert.equal(report.created, 2);
    const names = await t.deps.db.selectFrom("contacts").select("name").where(
      "companyId",
      "=",
      b.id,
    )
      .orderBy("name").execute();
    assert.deepEqual(names.map((n) => n.name), ["=cmd", 'Silva, "Zé"']);
  }));
