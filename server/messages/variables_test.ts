import assert from "node:assert/strict";
import { renderVariables } from "./variables.ts";
import { unknownCampaignVariables } from "../../contract/message_variables.ts";

/** São Paulo's clock (UTC-3); another zone's: the Manaus case below. */
const SP = "America/Sao_Paulo";

Deno.test("message variables - resolves every variable in local time and keeps unknown ones", () => {
  // 12:30 UTC is 09:30 in São Paulo (UTC-3).
  const now = new Date("2026-03-05T12:30:07.000Z");
  const text = renderVariables(
    "{{ms}} {{firstName}}! {{name}} #{{protocol}} {{date}} {{hour}} {{unknown}} {{ name }}",
    { contact: { name: "Maria da Silva" }, ticketId: 42, now, timeZone: SP },
  );
  assert.equal(
    text,
    "Bom dia Maria! Maria da Silva #2026030509300742 05/03/2026 09:30:07 {{unknown}} Maria da Silva",
  );
});

Deno.test("message variables - on the company's clock: 12:30 UTC is 08:30 in Manaus (issue 43.1)", () => {
  const now = new Date("2026-03-05T12:30:07.000Z");
  assert.equal(
    renderVariables("{{date}} {{hour}} {{ms}}", { now, timeZone: "America/Manaus" }),
    "05/03/2026 08:30:07 Bom dia",
  );
  // 02:30 UTC: still the 4th in Manaus (22:30), the 4th in São Paulo (23:30).
  const late = new Date("2026-03-05T02:30:00.000Z");
  assert.equal(
    renderVariables("{{date}}", { now: late, timeZone: "America/Manaus" }),
    "04/03/2026",
  );
  assert.equal(
    renderVariables("{{date}}", { now: late, timeZone: "America/Noronha" }),
    "05/03/2026",
  );
});

Deno.test("message variables - greeting follows the local hour", () => {
  const at = (iso: string) => renderVariables("{{ms}}", { now: new Date(iso), timeZone: SP });
  assert.equal(at("2026-03-05T08:00:00Z"), "Boa madrugada"); // 05:00 local
  assert.equal(at("2026-03-05T15:00:00Z"), "Boa tarde"); // 12:00 local
  assert.equal(at("2026-03-05T21:00:00Z"), "Boa noite"); // 18:00 local
  assert.equal(
    renderVariables("{{firstName}}|{{name}}", { now: new Date(), contact: null, timeZone: SP }),
    "|",
  );
});

Deno.test("message variables - {{user}} is the attendant; nothing given, it is empty", () => {
  const now = new Date("2026-03-05T12:30:07.000Z");
  assert.equal(
    renderVariables("Sou {{user}}.", { now, user: { name: " Ana Paula " }, timeZone: SP }),
    "Sou Ana Paula.",
  );
  assert.equal(renderVariables("Sou {{user}}.", { now, timeZone: SP }), "Sou .");
});

Deno.test("campaign variables - the ones nothing fills, as written, once each", () => {
  assert.deepEqual(
    unknownCampaignVariables(
      "{{ ms }} {nome}! {{user}} {cupom} {cupom} {{foo}} {numero} {email} {{name}} {frete}",
      ["frete"],
    ),
    ["{{user}}", "{{foo}}", "{cupom}"],
  );
  // A double-brace variable is not read again as a single-brace one.
  assert.deepEqual(unknownCampaignVariables("{{nome}}", ["nome"]), ["{{nome}}"]);
  assert.deepEqual(unknownCampaignVariables("Olá {{firstName}}, {name}", []), []);
});
