import assert from "node:assert/strict";
import { twoCompanies, withApp } from "../helpers/app.ts";
import { connectSimulator } from "../whatsapp/helpers.ts";
import { createCampaign, seedList } from "../campaigns/helpers.ts";

/**
 * Issue 24 item 6 on the server: a company's zone is a setting (default America/Sao_Paulo, an
 * IANA name, anything else refused) and a typed campaign time is read on that company's clock.
 */
Deno.test("time zone - the company's setting decides how a typed campaign time is read", () =>
  withApp(async (t) => {
    const { a, b } = await twoCompanies(t);
    const settings = await (await t.request("GET", "/api/settings", { token: a.admin.token }))
      .json() as { key: string; value: string }[];
    assert.equal(settings.find((s) => s.key === "timeZone")?.value, "America/Sao_Paulo");

    const wrong = await t.request("PUT", "/api/settings/timeZone", {
      token: a.admin.token,
      body: { value: "Mars/Olympus" },
    });
    assert.equal(wrong.status, 400);
    assert.equal((await wrong.json()).error, "ERR_VALIDATION");
    const manaus = await t.request("PUT", "/api/settings/timeZone", {
      token: a.admin.token,
      body: { value: "America/Manaus" },
    });
    assert.equal(manaus.status, 200);

    const scheduled = async (company: typeof a) => {
      const wid = await connectSimulator(t, company);
      const list = await seedList(t, company, 1);
      const view = await createCampaign(t, company, {
        whatsappId: wid,
        contactListId: list,
        scheduledAt: "2026-11-22 23:42:00",
      });
      return view.scheduledAt;
    };
    // 23:42 in Manaus (UTC-4) for A; in São Paulo (UTC-3), the default, for B.
    assert.equal(await scheduled(a), "2026-11-23T03:42:00.000Z");
    assert.equal(await scheduled(b), "2026-11-23T02:42:00.000Z");
  }));
