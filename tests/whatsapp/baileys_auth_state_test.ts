import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import { proto } from "@whiskeysockets/baileys";

const enc = new TextEncoder();
const dec = new TextDecoder();
const bytes = (v: string | number[]) => typeof v === "string" ? enc.encode(v) : new Uint8Array(v);
import { withApp } from "../helpers/app.ts";
import { useDatabaseAuthState } from "../../server/whatsapp/providers/baileys/auth_state.ts";
import { countAuthValues } from "../../server/whatsapp/providers/baileys/auth_repository.ts";
import { insertCompany, insertConnection } from "./baileys_fake.ts";

const COMPANY = 1; // seeded at first start

Deno.test("baileys auth state - creds saved survive a fresh load with Buffers intact", () =>
  withApp(async (t) => {
    const db = t.deps.db;
    const wa = await insertConnection(db, COMPANY, "Main", t.clock.now().toISOString());
    const first = await useDatabaseAuthState(db, COMPANY, wa, t.clock);
    assert.equal(first.state.creds.registered, false);
    first.state.creds.me = { id: "5511900000001:3@s.whatsapp.net", name: "Loja" };
    first.state.creds.routingInfo = Buffer.from([1, 2, 3, 250]);
    await first.saveCreds();

    const again = await useDatabaseAuthState(db, COMPANY, wa, t.clock);
    assert.equal(again.state.creds.me?.id, "5511900000001:3@s.whatsapp.net");
    assert.ok(again.state.creds.noiseKey.private instanceof Uint8Array);
    assert.deepEqual(
      [...again.state.creds.noiseKey.private],
      [...first.state.creds.noiseKey.private],
    );
    assert.deepEqual(
      [...again.state.creds.signedIdentityKey.public],
      [...first.state.creds.signedIdentityKey.public],
    );
    assert.deepEqual([...again.state.creds.routingInfo!], [1, 2, 3, 250]);
    assert.equal(again.state.creds.registrationId, first.state.creds.registrationId);
    assert.deepEqual(await countAuthValues(db, COMPANY, wa), { creds: 1 });
  }));

Deno.test("baileys auth state - keys set/get round-trip, null deletes, in one batch", () =>
  withApp(async (t) => {
    const db = t.deps.db;
    const wa = await insertConnection(db, COMPANY, "Main", t.clock.now().toISOString());
    const auth = await useDatabaseAuthState(db, COMPANY, wa, t.clock);
    const preKey = { public: bytes("pub-1"), private: bytes("priv-1") };
    await auth.state.keys.set({
      "pre-key": { "1": preKey, "2": { public: bytes("p2"), private: bytes("k2") } },
      session: { "5511988887777.0": bytes([9, 8, 7]) },
      "app-state-sync-key": { AAAA: { keyData: bytes("secret"), timestamp: 1700000000 } },
      "lid-mapping": {
        "5511988887777": "123456789012345",
        "123456789012345_reverse": "5511988887777",
      },
    });
    assert.deepEqual(await countAuthValues(db, COMPANY, wa), {
      "pre-key": 2,
      session: 1,
      "app-state-sync-key": 1,
      "lid-mapping": 2,
    });

    const fresh = await useDatabaseAuthState(db, COMPANY, wa, t.clock);
    const preKeys = await fresh.state.keys.get("pre-key", ["1", "2", "404"]);
    assert.deepEqual(Object.keys(preKeys).sort(), ["1", "2"]);
    assert.ok(preKeys["1"].private instanceof Uint8Array);
    assert.equal(dec.decode(preKeys["1"].private), "priv-1");
    const sessions = await fresh.state.keys.get("session", ["5511988887777.0"]);
    assert.deepEqual([...sessions["5511988887777.0"]], [9, 8, 7]);
    const appKeys = await fresh.state.keys.get("app-state-sync-key", ["AAAA"]);
    assert.ok(appKeys.AAAA instanceof proto.Message.AppStateSyncKeyData);
    assert.equal(dec.decode(appKeys.AAAA.keyData!), "secret");
    const lid = await fresh.state.keys.get("lid-mapping", ["123456789012345_reverse"]);
    assert.equal(lid["123456789012345_reverse"], "5511988887777");

    // null deletes; an update overwrites; both in the same call.
    await fresh.state.keys.set({
      "pre-key": { "1": null, "2": { public: bytes("p2b"), private: bytes("k2b") } },
    });
    const after = await auth.state.keys.get("pre-key", ["1", "2"]);
    assert.deepEqual(Object.keys(after), ["2"]);
    assert.equal(dec.decode(after["2"].public), "p2b");
    assert.equal((await countAuthValues(db, COMPANY, wa))["pre-key"], 1);
  }));

Deno.test("baileys auth state - clear forgets everything and later writes do not resurrect it", () =>
  withApp(async (t) => {
    const db = t.deps.db;
    const wa = await insertConnection(db, COMPANY, "Main", t.clock.now().toISOString());
    const auth = await useDatabaseAuthState(db, COMPANY, wa, t.clock);
    await auth.saveCreds();
    await auth.state.keys.set({ session: { a: bytes([1]) } });
    await auth.clear();
    assert.deepEqual(await countAuthValues(db, COMPANY, wa), {});
    // The closing socket may still flush creds or keys after a logout.
    await auth.saveCreds();
    await auth.state.keys.set({ session: { b: bytes([2]) } });
    await auth.flushed();
    assert.deepEqual(await countAuthValues(db, COMPANY, wa), {});
    const fresh = await useDatabaseAuthState(db, COMPANY, wa, t.clock);
    assert.equal(fresh.state.creds.me, undefined);
    assert.notDeepEqual(
      [...fresh.state.creds.noiseKey.public],
      [...auth.state.creds.noiseKey.public],
    );
  }));

Deno.test("baileys auth state - scoped by company: another company neither reads nor clears it", () =>
  withApp(async (t) => {
    const db = t.deps.db;
    const now = t.clock.now().toISOString();
    const wa = await insertConnection(db, COMPANY, "Main", now);
    const other = await insertCompany(db, "Other", now);
    const mine = await useDatabaseAuthState(db, COMPANY, wa, t.clock);
    mine.state.creds.me = { id: "5511900000001@s.whatsapp.net" };
    await mine.saveCreds();
    await mine.state.keys.set({ session: { s: bytes([1]) } });

    const foreign = await useDatabaseAuthState(db, other, wa, t.clock);
    assert.equal(foreign.state.creds.me, undefined);
    assert.deepEqual(await foreign.state.keys.get("session", ["s"]), {});
    await foreign.clear();
    assert.deepEqual(await countAuthValues(db, COMPANY, wa), { creds: 1, session: 1 });
  }));
