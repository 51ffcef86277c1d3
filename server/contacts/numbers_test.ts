import assert from "node:assert/strict";
import { isGroupId, normalizeNumber } from "./numbers.ts";

Deno.test("normalizeNumber - Brazilian numbers typed in any common way become digits with 55", () => {
  for (
    const input of [
      "5513912344321",
      "+55 13 91234-4321",
      "(13) 91234-4321",
      "13912344321",
      "55 (13) 9.1234-4321",
      "5513912344321@s.whatsapp.net",
    ]
  ) {
    assert.deepEqual(normalizeNumber(input), {
      ok: true,
      number: "5513912344321",
      isGroup: false,
    }, input);
  }
});

Deno.test("normalizeNumber - other countries with or without the plus; landlines", () => {
  assert.deepEqual(normalizeNumber("+1 (415) 555-2671"), {
    ok: true,
    number: "14155552671",
    isGroup: false,
  });
  assert.deepEqual(normalizeNumber("351912345678"), {
    ok: true,
    number: "351912345678",
    isGroup: false,
  });
  assert.deepEqual(normalizeNumber("(11) 3333-4444"), {
    ok: true,
    number: "551133334444",
    isGroup: false,
  });
});

Deno.test("normalizeNumber - old 8-digit Brazilian mobiles keep their WhatsApp form", () => {
  assert.deepEqual(normalizeNumber("551187654321"), {
    ok: true,
    number: "551187654321",
    isGroup: false,
  });
  assert.deepEqual(normalizeNumber("1187654321"), {
    ok: true,
    number: "551187654321",
    isGroup: false,
  });
});

Deno.test("normalizeNumber - refuses letters, wrong lengths and impossible numbers with a reason", () => {
  for (
    const [input, reason] of [
      ["5513abc44321", /caracteres não numéricos/],
      ["1234567", /de 8 a 15 dígitos/],
      ["1234567890123456", /de 8 a 15 dígitos/],
      ["5500912344321", /não é um número de telefone válido/],
      ["+1 000 000 0000", /não é um número de telefone válido/],
    ] as const
  ) {
    const result = normalizeNumber(input);
    assert.equal(result.ok, false, input);
    if (!result.ok) assert.match(result.message, reason, input);
  }
});

Deno.test("normalizeNumber - group ids are left alone", () => {
  assert.equal(isGroupId("120363025246125486"), true);
  assert.equal(isGroupId("5511999999999-1595959595"), true);
  assert.equal(isGroupId("120363025246125486@g.us"), true);
  assert.equal(isGroupId("5513912344321"), false);
  assert.deepEqual(normalizeNumber("120363025246125486@g.us"), {
    ok: true,
    number: "120363025246125486",
    isGroup: true,
  });
});
