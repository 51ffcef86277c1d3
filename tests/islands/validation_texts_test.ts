import assert from "node:assert/strict";
import { ApiError, fieldErrors } from "../../islands/lib/errors.ts";
import { RULE_TEXTS } from "../../contract/validation.ts";
import pt from "../../locales/pt.json" with { type: "json" };
import es from "../../locales/es.json" with { type: "json" };
import en from "../../locales/en.json" with { type: "json" };

/** A translator over one locale file (dotted keys), the key itself when missing. */
function translator(locale: unknown) {
  return (key: string) => {
    let node: unknown = locale;
    for (const part of key.split(".")) node = (node as Record<string, unknown>)?.[part];
    return typeof node === "string" ? node : key;
  };
}

const refused = new ApiError(400, "ERR_VALIDATION", "name: Too Short!", {
  name: [RULE_TEXTS.tooShort],
  email: [RULE_TEXTS.invalidEmail],
  password: [RULE_TEXTS.required],
  title: [RULE_TEXTS.tooLong],
  body: [RULE_TEXTS.shortMessage],
  // zod's own English message, when a schema gives none.
  planId: ["Invalid input: expected number, received string"],
  // A text the server wrote for people stays as it is.
  cpf: ["CPF/CNPJ inválido"],
});

Deno.test("validation texts - the server's field messages are said in Portuguese on a pt page", () => {
  assert.deepEqual(fieldErrors(refused, translator(pt)), {
    name: "Muito curto!",
    email: "E-mail inválido",
    password: "Obrigatório",
    title: "Muito longo!",
    body: "Mensagem muito curta",
    planId: "Valor inválido",
    cpf: "CPF/CNPJ inválido",
  });
});

Deno.test("validation texts - Spanish page in Spanish; English keeps the specification's texts", () => {
  const spanish = fieldErrors(refused, translator(es))!;
  assert.equal(spanish.name, "¡Demasiado corto!");
  assert.equal(spanish.password, "Obligatorio");
  const english = fieldErrors(refused, translator(en))!;
  assert.deepEqual([english.name, english.email, english.password, english.title], [
    "Too Short!",
    "Invalid email",
    "Required",
    "Too Long!",
  ]);
});

Deno.test("validation texts - no English rule text and no 'sucessfully' left in pt.json", () => {
  const texts: string[] = [];
  const walk = (node: unknown) => {
    if (typeof node === "string") texts.push(node);
    else if (node && typeof node === "object") Object.values(node).forEach(walk);
  };
  walk(pt);
  for (const english of ["Required", "Too Short!", "Too Long!", "Invalid email"]) {
    assert.ok(!texts.includes(english), english);
  }
  assert.deepEqual(texts.filter((s) => /sucessfully|successfully/i.test(s)), []);
});

Deno.test("validation texts - an answer in another language is shown in the page's by its rules", () => {
  // The server answered in Portuguese (the request's language); the page is in English.
  const body = {
    error: "ERR_VALIDATION",
    message: "name: Muito curto!",
    fields: { name: ["Muito curto!"], email: ["E-mail inválido"], planId: ["Selecione um plano"] },
    rules: { name: "tooShort", email: "invalidEmail", planId: "custom" },
  };
  const answer = new ApiError(400, "ERR_VALIDATION", body.message, body.fields, body);
  assert.deepEqual(fieldErrors(answer, translator(en)), {
    name: "Too Short!",
    email: "Invalid email",
    planId: "Selecione um plano",
  });
});
