import assert from "node:assert/strict";
import { ADMIN_EMAIL, ADMIN_PASSWORD, login, twoCompanies, withApp } from "../helpers/app.ts";
import { createDueInvoices } from "../../server/billing/service.ts";

/** Issue 29 item 4: a paid invoice has a printable receipt; an open one has none. */
Deno.test("invoice receipt - a paid invoice's printable HTML, escaped; none before payment; another company's is 404", () =>
  withApp(async (t) => {
    const { a, b } = await twoCompanies(t);
    await t.deps.db.updateTable("companies").set({ dueDate: "2026-11-25" })
      .where("id", "=", a.id).execute();
    await createDueInvoices(t.deps);
    const invoice = await t.deps.db.selectFrom("invoices").selectAll()
      .where("companyId", "=", a.id).executeTakeFirstOrThrow();
    await t.deps.db.updateTable("invoices").set({ detail: "Plano <b>Pro</b>" })
      .where("companyId", "=", a.id).where("id", "=", invoice.id).execute();
    const path = `/api/invoices/${invoice.id}/receipt`;

    const early = await t.request("GET", path, { token: a.admin.token });
    assert.equal(early.status, 409);
    assert.equal((await early.json()).error, "ERR_INVOICE_NOT_PAID");

    const root = await login(t, ADMIN_EMAIL, ADMIN_PASSWORD);
    const paid = await t.request("PUT", `/api/invoices/${invoice.id}/paid`, { token: root.token });
    assert.equal(paid.status, 200);
    await paid.body?.cancel();

    const res = await t.request("GET", path, { token: a.admin.token });
    assert.equal(res.status, 200);
    assert.match(res.headers.get("content-type") ?? "", /^text\/html/);
    assert.match(
      res.headers.get("content-disposition") ?? "",
      new RegExp(`attachment; filename="recibo-fatura-${invoice.id}.html"`),
    );
    const html = await res.text();
    assert.match(html, /Recibo de pagamento/);
    assert.match(html, /R\$ 99,00/);
    assert.match(html, /Alpha/);
    assert.match(html, /25\/11\/2026/);
    assert.match(html, /Plano &#60;b&#62;Pro&#60;\/b&#62;/);
    assert.doesNotMatch(html, /<b>Pro/);
    assert.doesNotMatch(html, /<script/);

    const other = await t.request("GET", path, { token: b.admin.token });
    assert.equal(other.status, 404);
    assert.equal((await other.json()).error, "ERR_NO_INVOICE_FOUND");
    const user = await t.request("GET", path, { token: a.user.token });
    assert.equal(user.status, 403);
    await user.body?.cancel();
    const bySuper = await t.request("GET", path, { token: root.token });
    assert.equal(bySuper.status, 200);
    assert.match(await bySuper.text(), /Alpha/);
  }));
