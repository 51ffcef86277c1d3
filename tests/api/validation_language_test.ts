import assert from "node:assert/strict";
import { createCompany, withApp } from "../helpers/app.ts";

/**
 * Issue 44 item 3: a 400 ERR_VALIDATION speaks the request's language (Accept-Language; pt when
 * none of pt/en/es is named), its message and each field's text, like every other error; each
 * field also carries its rule, the same in every language, for clients with words of their own.
 */
const BAD_SIGNUP = { companyName: "A", email: "not-an-email", password: "123", planId: 1 };
const RULES = {
  name: "required",
  companyName: "tooShort",
  email: "invalidEmail",
  password: "tooShort",
};

async function badSignup(
  t: Parameters<Parameters<typeof withApp>[0]>[0],
  acceptLanguage?: string,
) {
  const res = await t.request("POST", "/api/companies/cadastro", {
    body: BAD_SIGNUP,
    headers: acceptLanguage ? { "accept-language": acceptLanguage } : {},
  });
  assert.equal(res.status, 400);
  return await res.json();
}

Deno.test("validation language - a bad signup is answered in Portuguese by default, in English or Spanish when asked, with the same rules", () =>
  withApp(async (t) => {
    assert.deepEqual(await badSignup(t), {
      error: "ERR_VALIDATION",
      message: "name: Obrigatório",
      fields: {
        name: ["Obrigatório"],
        companyName: ["Muito curto!"],
        email: ["E-mail inválido"],
        password: ["Muito curto!"],
      },
      rules: RULES,
    });
    assert.deepEqual(await badSignup(t, "en-US,en;q=0.9"), {
      error: "ERR_VALIDATION",
      message: "name: Required",
      fields: {
        name: ["Required"],
        companyName: ["Too Short!"],
        email: ["Invalid email"],
        password: ["Too Short!"],
      },
      rules: RULES,
    });
    const spanish = await badSignup(t, "es-AR,es;q=0.9,en;q=0.8");
    assert.equal(spanish.message, "name: Obligatorio");
    assert.deepEqual(spanish.fields, {
      name: ["Obligatorio"],
      companyName: ["¡Demasiado corto!"],
      email: ["Correo electrónico inválido"],
      password: ["¡Demasiado corto!"],
    });
    assert.deepEqual(spanish.rules, RULES);
    // A language we do not speak: Portuguese.
    assert.equal((await badSignup(t, "de-DE")).message, "name: Obrigatório");
  }));

Deno.test("validation language - a wrong type is 'invalid' in words of the language, a text of the server's own is 'custom' and said as it is; the admin forms' texts too", () =>
  withApp(async (t) => {
    const res = await t.request("POST", "/api/companies/cadastro", {
      body: {
        name: "Ana",
        companyName: "Loja",
        email: "a@b.test",
        password: "12345",
        phone: 5,
        planId: "x",
      },
      headers: { "accept-language": "en" },
    });
    assert.equal(res.status, 400);
    const body = await res.json();
    assert.deepEqual(body.rules, { phone: "invalid", planId: "custom" });
    assert.deepEqual(body.fields, { phone: ["Invalid value"], planId: ["Selecione um plano"] });
    assert.equal(body.message, "phone: Invalid value");

    const a = await createCompany(t, "Alpha");
    const tag = await t.request("POST", "/api/tags", {
      token: a.admin.token,
      body: { name: "", color: "#123456" },
      headers: { "accept-language": "es" },
    });
    assert.equal(tag.status, 400);
    assert.deepEqual(await tag.json(), {
      error: "ERR_VALIDATION",
      message: "name: Obligatorio",
      fields: { name: ["Obligatorio"] },
      rules: { name: "required" },
    });
  }));
