import assert from "node:assert/strict";
import {
  attachmentStep,
  checkValues,
  refusal,
  required,
  tabOfErrors,
  valuesOf,
} from "../../islands/lib/list/form_rules.ts";
import { ApiError } from "../../islands/lib/errors.ts";
import { length, LIMITS } from "../../contract/validation.ts";

/**
 * The form kit's rules (islands/lib/list/form_rules.ts) that every record dialog follows: a
 * stored record fills the form in the form's types, a refusal is said where it belongs, a
 * record's file follows its save, and a refused save shows the tab of the field in error.
 */

const t = (key: string) => `<${key}>`;

Deno.test("form kit - a stored record fills the form's keys, as text where the form holds text", () => {
  const empty = {
    name: "",
    priority: "3",
    status: "true",
    queueId: "none",
    kanban: false,
    ids: [],
  };
  const record = {
    id: 7,
    name: "Vendas",
    priority: 1,
    status: false,
    queueId: null,
    kanban: true,
    ids: [4, 5],
    companyId: 2,
  };
  assert.deepEqual(valuesOf(empty, record), {
    name: "Vendas",
    priority: "1",
    status: "false",
    // null keeps the form's "none": the select shows no choice.
    queueId: "none",
    kanban: true,
    ids: [4, 5],
  });
  // Keys the form does not hold are left out; keys the record lacks keep the empty value.
  assert.deepEqual(valuesOf({ name: "x", secret: "" }, { name: "y" }), { name: "y", secret: "" });
});

Deno.test("form kit - ERR_VALIDATION goes under the fields without a toast; other codes toast", () => {
  const validation = new ApiError(400, "ERR_VALIDATION", "invalid", { name: ["Too Short!"] });
  // The server's spec text is said in the page's language (issue 24 item 2).
  assert.deepEqual(refusal(validation, {}, t), {
    fields: { name: "<people.validation.tooShort>" },
    toast: false,
  });

  const plain = new ApiError(403, "ERR_PLAN_LIMIT", "limit");
  assert.deepEqual(refusal(plain, {}, t), { fields: null, toast: true });
  assert.deepEqual(refusal(new TypeError("offline"), {}, t), { fields: null, toast: true });

  // A code that belongs to a field is said under it (and in the toast).
  const greeting = new ApiError(400, "ERR_WAPP_GREETING_REQUIRED", "greeting");
  assert.deepEqual(refusal(greeting, { ERR_WAPP_GREETING_REQUIRED: "greetingMessage" }, t), {
    fields: { greetingMessage: "<errors.ERR_WAPP_GREETING_REQUIRED>" },
    toast: true,
  });
  const name = new ApiError(409, "ERR_DUPLICATED_NAME", "taken");
  assert.deepEqual(
    refusal(name, { ERR_DUPLICATED_NAME: ["name", "queues.errors.nameTaken"] }, t).fields,
    { name: "<queues.errors.nameTaken>" },
  );
});

Deno.test("form kit - a record's file: a chosen one is sent, a removed stored one deleted", () => {
  const file = new File(["x"], "a.png");
  assert.equal(attachmentStep({ kind: "new", file }, null), "upload");
  assert.equal(attachmentStep({ kind: "new", file }, "old.png"), "upload");
  assert.equal(attachmentStep(null, "old.png"), "remove");
  assert.equal(attachmentStep(null, null), "keep");
  assert.equal(attachmentStep({ kind: "stored", name: "old.png" }, "old.png"), "keep");
});

Deno.test("form kit - a refused save shows the tab holding the first field in error", () => {
  const tabs = [
    { value: "general", fields: ["name", "provider"] },
    { value: "messages", fields: ["greetingMessage"] },
    { value: "automation", fields: ["token"] },
  ];
  assert.equal(tabOfErrors(tabs, "automation", { greetingMessage: "x" }), "messages");
  assert.equal(tabOfErrors(tabs, "messages", { name: "x", greetingMessage: "y" }), "messages");
  assert.equal(tabOfErrors(tabs, "automation", { name: "x", token: "" }), "general");
  // No error (or only cleared ones): the tab stays.
  assert.equal(tabOfErrors(tabs, "automation", {}), "automation");
  assert.equal(tabOfErrors(tabs, "messages", { name: "" }), "messages");
});

Deno.test("form kit - the text rules run over the form's values", () => {
  const rules = { name: length(LIMITS.name), prompt: required(), title: required("x.required") };
  assert.deepEqual(checkValues({ name: "A", prompt: " ", title: "", other: 3 }, rules), {
    name: "people.validation.tooShort",
    prompt: "people.validation.required",
    title: "x.required",
  });
  assert.deepEqual(checkValues({ name: "Ana", prompt: "p", title: "t" }, rules), {});
});
