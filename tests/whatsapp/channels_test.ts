import assert from "node:assert/strict";
import { createCompany, withApp } from "../helpers/app.ts";
import {
  capabilitiesOf,
  capabilityMarkdown,
  capabilityTable,
  CHANNEL_KINDS,
} from "../../contract/channels.ts";

Deno.test("channels - GET /api/whatsapp/:id answers the connection's capabilities as booleans", async () => {
  await withApp(async (t) => {
    const a = await createCompany(t, "Alpha");
    const res = await t.request("POST", "/api/whatsapp", {
      token: a.admin.token,
      body: { name: "Demo", provider: "simulator" },
    });
    assert.equal(res.status, 201);
    const created = await res.json();
    const read = await t.request("GET", `/api/whatsapp/${created.id}`, { token: a.user.token });
    const view = await read.json();
    assert.equal(view.capabilities.templates, false);
    assert.equal(view.capabilities.qr, true);
    assert.equal(view.capabilities.simulated, true);
    for (const value of Object.values(view.capabilities)) assert.equal(typeof value, "boolean");
    const list = await t.request("GET", "/api/whatsapp", { token: a.user.token });
    assert.deepEqual((await list.json())[0].capabilities, view.capabilities);
  });
});

Deno.test("channels - each kind is declared once; an unknown kind can do nothing", () => {
  assert.deepEqual(CHANNEL_KINDS, ["beta", "simulator", "cloud_api"]);
  assert.equal(capabilitiesOf("cloud_api").templates, true);
  assert.equal(capabilitiesOf("cloud_api").window24h, true);
  assert.equal(capabilitiesOf("beta").qr, true);
  assert.ok(Object.values(capabilitiesOf("unknown-kind")).every((v) => v === false));
  const table = capabilityTable();
  assert.ok(table.some((row) => row.capability === "templates"));
  assert.ok(table.every((row) => row.kinds.length === CHANNEL_KINDS.length));
});

Deno.test("channels - README's capability table is the declaration's", async () => {
  const flat = (text: string) => text.replace(/-+/g, "-").replace(/[ \t]+/g, " ");
  const readme = await Deno.readTextFile(new URL("../../README.md", import.meta.url));
  assert.ok(flat(readme).includes(flat(capabilityMarkdown())), "README shows capabilityMarkdown()");
});
