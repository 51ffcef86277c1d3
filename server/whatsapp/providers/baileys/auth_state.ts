import {
  type AuthenticationCreds,
  type AuthenticationState,
  BufferJSON,
  initAuthCreds,
  proto,
  type SignalDataSet,
  type SignalDataTypeMap,
} from "@whiskeysockets/baileys";
import type { Database } from "../../../../db/client.ts";
import { type Clock, systemClock } from "../../../clock.ts";
import {
  type AuthWrite,
  clearAuthValues,
  readAuthValues,
  writeAuthValues,
} from "./auth_repository.ts";

/** The credentials row: one per connection. */
const CREDS = { category: "creds", id: "creds" } as const;

export type DatabaseAuthState = {
  /** Handed to makeWASocket as `auth`. */
  state: AuthenticationState;
  /** Persists the current credentials; wire it to the socket's creds.update. */
  saveCreds(): Promise<void>;
  /** Forgets credentials and keys (logout, new QR). Afterwards this state writes nothing. */
  clear(): Promise<void>;
  /** Resolves when every write requested so far has reached the database. */
  flushed(): Promise<void>;
};

/** JSON with Baileys' Buffer encoding, so that binary keys survive the round-trip. */
export function encodeAuthValue(value: unknown): string {
  return JSON.stringify(value, BufferJSON.replacer);
}

export function decodeAuthValue<T>(text: string): T {
  return JSON.parse(text, BufferJSON.reviver) as T;
}

/**
 * The database counterpart of Baileys' useMultiFileAuthState: credentials and Signal keys of one
 * connection, scoped by company. Writes go through one queue per state so that they land in the
 * order Baileys made them, and reads wait for the writes before them.
 */
export async function useDatabaseAuthState(
  db: Database,
  companyId: number,
  whatsappId: number,
  clock: Clock = systemClock,
): Promise<DatabaseAuthState> {
  const stored = await readAuthValues(db, companyId, whatsappId, CREDS.category, [CREDS.id]);
  const text = stored.get(CREDS.id);
  const creds: AuthenticationCreds = text
    ? decodeAuthValue<AuthenticationCreds>(text)
    : initAuthCreds();

  let queue: Promise<void> = Promise.resolve();
  let cleared = false;

  // A failed write is logged by the caller's catch; the queue itself must keep going.
  const enqueue = (work: () => Promise<void>): Promise<void> => {
    const next = queue.then(work);
    queue = next.catch(() => {});
    return next;
  };

  const write = (writes: AuthWrite[]): Promise<void> => {
    // After a logout the old session may still flush a last creds.update while it closes;
    // writing it back would resurrect dead credentials and loop on 401 at the next start.
    if (cleared) return Promise.resolve();
    return enqueue(() =>
      cleared
        ? Promise.resolve()
        : writeAuthValues(db, companyId, whatsappId, writes, clock.now().toISOString())
    );
  };

  const state: AuthenticationState = {
    creds,
    keys: {
      get: async <T extends keyof SignalDataTypeMap>(type: T, ids: string[]) => {
        await queue;
        const found = await readAuthValues(db, companyId, whatsappId, type, ids);
        const data: { [id: string]: SignalDataTypeMap[T] } = {};
        for (const id of ids) {
          const raw = found.get(id);
          if (raw === undefined) continue;
          let value: unknown = decodeAuthValue(raw);
          if (type === "app-state-sync-key" && value) {
            // Baileys reads these as protobuf objects, not plain JSON (as its file store does).
            value = proto.Message.AppStateSyncKeyData.fromObject(value as Record<string, unknown>);
          }
          data[id] = value as SignalDataTypeMap[T];
        }
        return data;
      },
      set: async (data: SignalDataSet) => {
        const writes: AuthWrite[] = [];
        for (const category of Object.keys(data) as (keyof SignalDataTypeMap)[]) {
          const entries = data[category] ?? {};
          for (const id of Object.keys(entries)) {
            const value = entries[id];
            // null (or undefined) means "delete", as in Baileys' own stores.
            writes.push({ category, id, value: value ? encodeAuthValue(value) : null });
          }
        }
        await write(writes);
      },
      clear: async () => {
        await enqueue(() => clearAuthValues(db, companyId, whatsappId));
      },
    },
  };

  return {
    state,
    saveCreds: () => write([{ ...CREDS, value: encodeAuthValue(creds) }]),
    clear: async () => {
      cleared = true;
      await enqueue(() => clearAuthValues(db, companyId, whatsappId));
    },
    flushed: () => queue,
  };
}
