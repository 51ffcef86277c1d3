import { Hono } from "hono";
import { Buffer } from "node:buffer";
import crypto from "node:crypto";

/**
 * A push service as browsers' vendors run them (FCM, Mozilla's autopush, Apple's), in process on
 * port 0: every POST to /push/<device> is recorded with its headers and encrypted body, and
 * answered 201, or `answers[device]` (410 for a browser that unsubscribed).
 *
 * A `PushDevice` is the browser's side: a P-256 key pair and an auth secret, whose
 * `subscription()` is the PushSubscription JSON a page posts, and whose `decrypt` opens an
 * aes128gcm body (RFC 8188 + RFC 8291) with node:crypto's ECDH and HKDF: the test reads what the
 * user would see, never trusting the sender's own code.
 */
export type PushRequest = {
  device: string;
  headers: Record<string, string>;
  body: Uint8Array;
  answered: number;
};

export class FakePushService {
  readonly received: PushRequest[] = [];
  readonly answers = new Map<string, number>();
  readonly #server: Deno.HttpServer<Deno.NetAddr>;

  constructor() {
    const app = new Hono();
    app.post("/push/:device", async (c) => {
      const device = c.req.param("device");
      const answered = this.answers.get(device) ?? 201;
      this.received.push({
        device,
        headers: Object.fromEntries(c.req.raw.headers),
        body: new Uint8Array(await c.req.arrayBuffer()),
        answered,
      });
      return c.body(null, answered as 201);
    });
    this.#server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen: () => {} }, app.fetch);
  }

  get url(): string {
    return `http://127.0.0.1:${this.#server.addr.port}`;
  }

  /** What one device was sent, in order. */
  to(device: PushDevice): PushRequest[] {
    return this.received.filter((r) => r.device === device.name);
  }

  async close() {
    await this.#server.shutdown();
  }
}

export class PushDevice {
  readonly #ecdh = crypto.createECDH("prime256v1");
  readonly #auth = crypto.randomBytes(16);

  constructor(readonly service: FakePushService, readonly name = crypto.randomUUID()) {
    this.#ecdh.generateKeys();
  }

  get endpoint(): string {
    return `${this.service.url}/push/${this.name}`;
  }

  /** `PushSubscription.toJSON()` of this device. */
  subscription(): { endpoint: string; expirationTime: null; keys: Record<string, string> } {
    return {
      endpoint: this.endpoint,
      expirationTime: null,
      keys: {
        p256dh: this.#ecdh.getPublicKey().toString("base64url"),
        auth: this.#auth.toString("base64url"),
      },
    };
  }

  /** The plaintext of an aes128gcm push body (one record), as the browser decrypts it. */
  decrypt(body: Uint8Array): string {
    const data = Buffer.from(body);
    const salt = data.subarray(0, 16);
    const idLength = data[20];
    const serverKey = data.subarray(21, 21 + idLength);
    const record = data.subarray(21 + idLength);
    const shared = this.#ecdh.computeSecret(serverKey);
    const info = Buffer.concat([
      Buffer.from("WebPush: info\0"),
      this.#ecdh.getPublicKey(),
      serverKey,
    ]);
    const ikm = Buffer.from(crypto.hkdfSync("sha256", shared, this.#auth, info, 32));
    const derive = (label: string, length: number) =>
      Buffer.from(crypto.hkdfSync("sha256", ikm, salt, Buffer.from(label), length));
    const decipher = crypto.createDecipheriv(
      "aes-128-gcm",
      derive("Content-Encoding: aes128gcm\0", 16),
      derive("Content-Encoding: nonce\0", 12),
    );
    decipher.setAuthTag(record.subarray(record.length - 16));
    const plain = Buffer.concat([
      decipher.update(record.subarray(0, record.length - 16)),
      decipher.final(),
    ]);
    // The last record ends with the delimiter 0x02, then padding zeros (RFC 8188 section 2).
    return plain.subarray(0, plain.lastIndexOf(2)).toString("utf8");
  }

  /** Every push this device got, decrypted and parsed. */
  received<T = Record<string, string>>(): T[] {
    return this.service.to(this).filter((r) => r.answered < 300)
      .map((r) => JSON.parse(this.decrypt(r.body)) as T);
  }
}
