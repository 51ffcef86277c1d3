import assert from "node:assert/strict";
import {
  applySession,
  applyUpdate,
  type Connection,
  CONNECTION_RULES,
  connectionRules,
  emptyForm,
  formatUpdatedAt,
  formOf,
  normalStatus,
  qrDialogDone,
  removeConnection,
  requestBody,
  sessionButtons,
} from "../../islands/connections/model.ts";
import { can } from "../../islands/lib/permissions.ts";
import { check } from "../../contract/validation.ts";
import { capabilitiesOf } from "../../contract/channels.ts";

function connection(fields: Partial<Connection> = {}): Connection {
  return {
    id: 1,
    name: "Loja",
    status: "qrcode",
    qrcode: "data:image/png;base64,AAAA",
    retries: 1,
    number: null,
    isDefault: true,
    greetingMessage: "",
    complationMessage: "",
    outOfHoursMessage: "",
    ratingMessage: "",
    tokenHint: "blc_…cret",
    provider: "simulator",
    capabilities: capabilitiesOf("simulator"),
    timeSendQueue: 0,
    sendIdQueue: 0,
    expiresInactiveMessage: "",
    expiresTicket: 0,
    timeUseBotQueues: 0,
    maxUseBotQueues: 3,
    promptId: null,
    queues: [],
    queueIds: [],
    updatedAt: "2026-11-22T12:00:00.000Z",
    ...fields,
  };
}

Deno.test("connections model - the status drives the session buttons (seeds/000 section 4)", () => {
  assert.deepEqual(sessionButtons("qrcode"), ["qrcode"]);
  assert.deepEqual(sessionButtons("DISCONNECTED"), ["tryAgain", "newQr"]);
  for (const status of ["CONNECTED", "connected", "PAIRING", "TIMEOUT"]) {
    assert.deepEqual(sessionButtons(status), ["disconnect"], status);
  }
  assert.deepEqual(sessionButtons("OPENING"), ["connecting"]);
  // Something unknown is treated as disconnected: the admin can always try again.
  assert.equal(normalStatus("weird"), "DISCONNECTED");
});

Deno.test("connections model - last update as dd/MM/yy HH:mm in local time", () => {
  const local = new Date(2026, 10, 2, 9, 5);
  assert.equal(formatUpdatedAt(local.toISOString()), "02/11/26 09:05");
  assert.equal(formatUpdatedAt("not a date"), "");
});

Deno.test("connections model - the QR dialog closes once connected or when the QR goes away", () => {
  assert.equal(qrDialogDone({ status: "qrcode", qrcode: "data:x" }, null), false);
  assert.equal(qrDialogDone({ status: "CONNECTED", qrcode: "" }, null), true);
  assert.equal(qrDialogDone({ status: "DISCONNECTED", qrcode: "" }, null), true);
  // A new QR is on its way, or a pairing code replaced the QR: stay open.
  assert.equal(qrDialogDone({ status: "OPENING", qrcode: "" }, null), false);
  assert.equal(qrDialogDone({ status: "PAIRING", qrcode: "" }, "ABCD1234"), false);
  assert.equal(qrDialogDone({ status: "PAIRING", qrcode: "" }, null), true);
});

Deno.test("connections model - live events update, add and remove rows; the token hint survives updates", () => {
  const list = [connection()];
  const connected = applySession(list, {
    id: 1,
    name: "Loja",
    status: "CONNECTED",
    qrcode: "",
    retries: 0,
    number: "5500000000001",
    provider: "simulator",
    isDefault: true,
    updatedAt: "2026-11-22T12:01:00.000Z",
  });
  assert.equal(connected[0].status, "CONNECTED");
  assert.equal(connected[0].qrcode, "");
  assert.equal(connected[0].number, "5500000000001");
  // whatsapp events never carry the token's hint: keep the one the admin read.
  const renamed = applyUpdate(connected, { ...connected[0], name: "Loja 2", tokenHint: undefined });
  assert.equal(renamed[0].name, "Loja 2");
  assert.equal(renamed[0].tokenHint, "blc_…cret");
  const added = applyUpdate(renamed, connection({ id: 2, name: "Açougue" }));
  assert.deepEqual(added.map((c) => c.name), ["Açougue", "Loja 2"]);
  assert.deepEqual(removeConnection(added, 1).map((c) => c.id), [2]);
});

Deno.test("connections model - name rules and the request body with the seeds' defaults", () => {
  const nameError = (name: string) => check({ name }, CONNECTION_RULES).name ?? null;
  assert.equal(nameError(""), "people.validation.required");
  assert.equal(nameError("  "), "people.validation.required");
  assert.equal(nameError("A"), "people.validation.tooShort");
  assert.equal(nameError("x".repeat(51)), "people.validation.tooLong");
  assert.equal(nameError("Ok"), null);
  const form = emptyForm();
  assert.equal(form.provider, "beta");
  assert.equal(form.maxUseBotQueues, 3);
  const body = requestBody({ ...form, name: "  Loja  ", expiresTicket: -5, timeSendQueue: 2.7 });
  assert.equal(body.name, "Loja");
  assert.equal(body.expiresTicket, 0);
  assert.equal(body.timeSendQueue, 2);
  assert.equal("token" in body, false);
  assert.deepEqual(formOf(connection({ queueIds: [4, 5] })).queueIds, [4, 5]);
});

Deno.test("permissions - admins have the named actions of seeds/000 section 6, users none", () => {
  assert.equal(can({ profile: "admin" }, "connections-page:addConnection"), true);
  assert.equal(can({ profile: "ADMIN" }, "connections-page:actionButtons"), true);
  assert.equal(can({ profile: "user" }, "connections-page:editOrDeleteConnection"), false);
  assert.equal(can(null, "connections-page:addConnection"), false);
});

Deno.test("connections model - a credentials channel: its fields checked, blank secrets kept, nothing of it sent for other channels", () => {
  const cloud = { ...emptyForm(), name: "Oficial", provider: "cloud_api" as const };
  const adding = check(cloud as unknown as Record<string, string>, connectionRules(cloud, true));
  assert.deepEqual(Object.keys(adding).sort(), [
    "accessToken",
    "appSecret",
    "businessAccountId",
    "phoneNumberId",
    "verifyToken",
  ]);
  const typed = {
    ...cloud,
    phoneNumberId: "106540352242922",
    businessAccountId: "12ab",
    verifyToken: "verify-token-1",
  };
  const editing = check(typed as unknown as Record<string, string>, connectionRules(typed, false));
  assert.deepEqual(editing, { businessAccountId: "people.validation.invalid" });
  const body = requestBody({ ...typed, accessToken: " EAAG-new-token-123 " });
  assert.equal(body.accessToken, "EAAG-new-token-123");
  assert.equal("appSecret" in body, false);
  const beta = requestBody({ ...typed, provider: "beta" });
  assert.equal("phoneNumberId" in beta || "verifyToken" in beta, false);
});
