import webpush from "web-push";
import type { Database } from "../../db/client.ts";
import type { Config } from "../config.ts";
import { storedSecret } from "../auth/secrets_repository.ts";

/** The VAPID key pair (RFC 8292), base64url: the public key is the browser's applicationServerKey. */
export type VapidKeys = Readonly<{ publicKey: string; privateKey: string; subject: string }>;

const loaded = new WeakMap<Database, Promise<VapidKeys>>();

/**
 * From VAPID_PUBLIC_KEY/VAPID_PRIVATE_KEY when given; otherwise generated once and kept in
 * app_secrets (`vapid_keys`), so every process and every restart signs with the same pair and the
 * browsers' subscriptions stay valid. INSERT OR IGNORE then read: two processes starting together
 * agree on one pair.
 */
export function vapidKeys(db: Database, config: Pick<Config, "push">): Promise<VapidKeys> {
  const subject = config.push.subject;
  if (config.push.publicKey && config.push.privateKey) {
    return Promise.resolve({
      publicKey: config.push.publicKey,
      privateKey: config.push.privateKey,
      subject,
    });
  }
  let keys = loaded.get(db);
  if (!keys) {
    keys = (async () => {
      const candidate = JSON.stringify(webpush.generateVAPIDKeys());
      const stored = await storedSecret(db, "vapid_keys", candidate, new Date().toISOString());
      const { publicKey, privateKey } = JSON.parse(stored) as { [k: string]: string };
      return Object.freeze({ publicKey, privateKey, subject });
    })();
    keys.catch(() => loaded.delete(db));
    loaded.set(db, keys);
  }
  return keys;
}
