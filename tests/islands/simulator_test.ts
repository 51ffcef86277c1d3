import assert from "node:assert/strict";
import {
  ackState,
  formatPhone,
  humanSize,
  initials,
  mediaKind,
  type OwnMessage,
  randomPhone,
  type SentItem,
  timeline,
  validPhone,
} from "../../islands/simulator/model.ts";

function sent(seq: number, createdAt: string, body = `s${seq}`): SentItem {
  return {
    seq,
    id: `W${seq}`,
    to: "5511988887777",
    body,
    media: null,
    quotedId: null,
    ack: 1,
    deleted: false,
    createdAt,
  };
}

function own(key: string, at: number): OwnMessage {
  return { key, wid: null, body: key, at, state: "stored" };
}

Deno.test("simulator model - both sides in one timeline, oldest first", () => {
  const t0 = Date.parse("2026-11-22T12:00:00.000Z");
  const items = timeline(
    [own("hi", t0), own("later", t0 + 5000)],
    [sent(2, "2026-11-22T12:00:03.000Z"), sent(1, "2026-11-22T12:00:03.000Z")],
  );
  assert.deepEqual(
    items.map((i) => i.side === "contact" ? i.message.key : i.message.body),
    ["hi", "s1", "s2", "later"],
  );
});

Deno.test("simulator model - numbers, names, acks and sizes as the phone shows them", () => {
  assert.equal(validPhone("+55 (11) 98888-7777"), true);
  assert.equal(validPhone("1234567"), false);
  assert.equal(validPhone("1".repeat(16)), false);
  assert.equal(formatPhone("5511988887777"), "+55 11 98888-7777");
  assert.equal(formatPhone("551133334444"), "+55 11 3333-4444");
  assert.equal(formatPhone("14155550100"), "+14155550100");
  assert.equal(initials("Joana Maria Souza", "55"), "JS");
  assert.equal(initials("", "5511988887777"), "77");
  assert.deepEqual([0, 1, 2, 3, 5].map(ackState), ["pending", "sent", "delivered", "read", "read"]);
  assert.equal(mediaKind("image/png"), "image");
  assert.equal(mediaKind("application/pdf"), "document");
  assert.equal(humanSize(2048), "2.0 KB");
  assert.equal(humanSize(3 * 1024 * 1024), "3.0 MB");
  let n = 0;
  const phone = randomPhone(() => (n++ % 10) / 10);
  assert.equal(validPhone(phone), true);
  assert.match(phone, /^55\d{2}9\d{8}$/);
});
