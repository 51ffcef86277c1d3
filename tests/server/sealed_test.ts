import assert from "node:assert/strict";
import { dataKey, mask, seal, unseal, unsealOrEmpty } from "../../server/crypto/sealed.ts";
import { isPrivateAddress } from "../../server/http/outbound_url.ts";

Deno.test("sealed - secrets round-trip, differ each time, fail under another key; masks show 4 at most", async () => {
  const key = await dataKey("k".repeat(32));
  const other = await dataKey("o".repeat(32));
  const a = await seal(key, "sk-secret-value-123456");
  const b = await seal(key, "sk-secret-value-123456");
  assert.notEqual(a, b);
  assert.equal(a.includes("sk-secret"), false);
  assert.equal(await unseal(key, a), "sk-secret-value-123456");
  await assert.rejects(() => unseal(other, a));
  assert.equal(await unsealOrEmpty(other, a), "");
  assert.equal(await seal(key, ""), "");
  assert.equal(mask("sk-secret-value-123456"), "••••••••3456");
  assert.equal(mask("short"), "••••••••");
});

Deno.test("outbound URLs - internal address literals are recognised", () => {
  for (
    const address of [
      "127.0.0.1",
      "10.1.2.3",
      "172.20.0.1",
      "192.168.0.10",
      "169.254.169.254",
      "100.64.0.1",
      "0.0.0.0",
      "::1",
      "fd00::1",
      "fe80::1",
      "::ffff:10.0.0.1",
    ]
  ) {
    assert.equal(isPrivateAddress(address), true, address);
  }
  for (const address of ["93.184.215.14", "8.8.8.8", "2606:4700::1111", "172.32.0.1"]) {
    assert.equal(isPrivateAddress(address), false, address);
  }
});
