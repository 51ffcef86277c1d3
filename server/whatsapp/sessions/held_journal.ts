import { log } from "../../log.ts";
import type { ProviderEvent } from "../providers/provider.ts";

/**
 * Where inbound events held for a full disk (held_inbound.ts) survive a restart (issue 43 item 5).
 *
 * A file in the data folder, its space reserved when the process starts (written with zeros up to
 * HELD_JOURNAL_BYTES), so that a record written while the disk is full lands in blocks the file
 * already owns. One file per process (`held-inbound-<pid>.journal`): processes that share a data
 * folder never write each other's. A process that starts adopts the journals of processes that
 * are gone (their pid is not running on this machine) and stores their events first.
 *
 * Layout: a 32-byte header (magic, pid, the last stored sequence number) and then records
 * `[length u32][checksum u32][JSON]` with consecutive sequence numbers; a zero length, a bad
 * checksum or a sequence that does not follow ends the list. When every held event is stored the
 * list is emptied by zeroing the first length. Storing a record twice does no harm: a message is
 * unique per (connection, WhatsApp id), and acks, edits and revokes set a state.
 */
export const HELD_JOURNAL_BYTES = 16 * 1024 * 1024;

const MAGIC = 0x42484a31; // "BHJ1"
const HEADER = 32;

export type JournalRecord = {
  seq: number;
  whatsappId: number;
  companyId: number;
  event: ProviderEvent;
};

/** FNV-1a: enough to tell a torn or stale record from a whole one. */
function checksum(bytes: Uint8Array): number {
  let hash = 0x811c9dc5;
  for (const byte of bytes) {
    hash ^= byte;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}

/** Dates travel as {"$date": iso}; media keeps its description, not its download function. */
function encode(record: JournalRecord): Uint8Array {
  const text = JSON.stringify(record, function (key, value) {
    const raw = (this as Record<string, unknown>)[key];
    return raw instanceof Date ? { $date: raw.toISOString() } : value;
  });
  return new TextEncoder().encode(text);
}

function decode(bytes: Uint8Array): JournalRecord {
  const record = JSON.parse(
    new TextDecoder().decode(bytes),
    (_key, value) =>
      value && typeof value === "object" && typeof value.$date === "string" &&
        Object.keys(value).length === 1
        ? new Date(value.$date)
        : value,
  ) as JournalRecord;
  const event = record.event;
  if (event.type === "message" && event.message.media) {
    // The bytes were never fetched (a download is lazy): after a restart the message is stored
    // with the download-failed placeholder rather than lost.
    event.message.media.download = () =>
      Promise.reject(new Error("media of a held event is not kept across a restart"));
  }
  return record;
}

async function writeAll(file: Deno.FsFile, offset: number, bytes: Uint8Array) {
  await file.seek(offset, Deno.SeekMode.Start);
  let written = 0;
  while (written < bytes.byteLength) written += await file.write(bytes.subarray(written));
}

async function readAt(file: Deno.FsFile, offset: number, length: number): Promise<Uint8Array> {
  const out = new Uint8Array(length);
  await file.seek(offset, Deno.SeekMode.Start);
  let read = 0;
  while (read < length) {
    const n = await file.read(out.subarray(read));
    if (n === null) return out.subarray(0, read);
    read += n;
  }
  return out;
}

/** The records of a journal file that were not yet stored, in order. */
async function pendingIn(file: Deno.FsFile, size: number): Promise<JournalRecord[]> {
  const header = new DataView((await readAt(file, 0, HEADER)).buffer);
  if (header.byteLength < HEADER || header.getUint32(0) !== MAGIC) return [];
  const done = header.getFloat64(8);
  const records: JournalRecord[] = [];
  let offset = HEADER;
  let previous: number | undefined;
  while (offset + 8 <= size) {
    const head = new DataView((await readAt(file, offset, 8)).buffer);
    const length = head.getUint32(0);
    if (length === 0 || offset + 8 + length > size) break;
    const body = await readAt(file, offset + 8, length);
    if (checksum(body) !== head.getUint32(4)) break;
    let record: JournalRecord;
    try {
      record = decode(body);
    } catch {
      break;
    }
    if (previous !== undefined && record.seq !== previous + 1) break;
    previous = record.seq;
    if (record.seq > done) records.push(record);
    offset += 8 + length;
  }
  return records;
}

function pidRunning(pid: number): boolean {
  if (pid === Deno.pid) return true;
  try {
    Deno.kill(pid, "SIGCONT");
    return true;
  } catch (error) {
    // EPERM: a process we may not signal is still a running process.
    return error instanceof Deno.errors.PermissionDenied;
  }
}

export class HeldJournal {
  #offset = HEADER;
  #seq = 0;
  #writing: Promise<unknown> = Promise.resolve();

  private constructor(
    private readonly file: Deno.FsFile,
    readonly path: string,
    private capacity: number,
  ) {}

  /**
   * Opens this process's journal in `dir`, its space reserved, and answers it with the events
   * the journals of gone processes still held (theirs are removed once read into ours).
   */
  static async open(
    dir: string,
    capacity = HELD_JOURNAL_BYTES,
  ): Promise<{ journal: HeldJournal; adopted: JournalRecord[] }> {
    const path = `${dir}/held-inbound-${Deno.pid}.journal`;
    const file = await Deno.open(path, { read: true, write: true, create: true, mode: 0o600 });
    const journal = new HeldJournal(file, path, capacity);
    const size = (await file.stat()).size;
    // A file of our pid is a gone process's whose pid came back: its events are adopted too.
    const adopted = await pendingIn(file, size);
    if (size < capacity) {
      try {
        await writeAll(file, size, new Uint8Array(capacity - size));
      } catch (error) {
        // Started on a full disk: the journal has what it got (maybe nothing); the rest is memory.
        journal.capacity = (await file.stat()).size;
        log.error("held inbound journal could not reserve its space", { path, error });
      }
    }
    await journal.#writeHeader(0);
    await writeAll(file, HEADER, new Uint8Array(8));
    await file.syncData();

    for await (const entry of Deno.readDir(dir)) {
      const match = /^held-inbound-(\d+)\.journal$/.exec(entry.name);
      if (!match || Number(match[1]) === Deno.pid || pidRunning(Number(match[1]))) continue;
      const other = `${dir}/${entry.name}`;
      try {
        const old = await Deno.open(other, { read: true });
        try {
          adopted.push(...await pendingIn(old, (await old.stat()).size));
        } finally {
          old.close();
        }
      } catch (error) {
        log.error("held inbound journal unreadable", { path: other, error });
        continue;
      }
    }
    if (adopted.length > 0) {
      log.info("held inbound events found from before a restart", { count: adopted.length });
    }
    return { journal, adopted };
  }

  /** Removes the journals of gone processes once their events are in ours. */
  static async removeOthers(dir: string) {
    for await (const entry of Deno.readDir(dir)) {
      const match = /^held-inbound-(\d+)\.journal$/.exec(entry.name);
      if (!match || Number(match[1]) === Deno.pid || pidRunning(Number(match[1]))) continue;
      await Deno.remove(`${dir}/${entry.name}`).catch(() => {});
    }
  }

  async #writeHeader(done: number) {
    const header = new DataView(new ArrayBuffer(HEADER));
    header.setUint32(0, MAGIC);
    header.setUint32(4, Deno.pid);
    header.setFloat64(8, done);
    await writeAll(this.file, 0, new Uint8Array(header.buffer));
  }

  /** One write at a time: records must not interleave. */
  #serial<T>(work: () => Promise<T>): Promise<T> {
    const next = this.#writing.then(work, work);
    this.#writing = next.catch(() => {});
    return next;
  }

  /** Writes a held event where a restart finds it; its sequence number, or undefined when full. */
  append(record: Omit<JournalRecord, "seq">): Promise<number | undefined> {
    return this.#serial(async () => {
      const seq = this.#seq + 1;
      const body = encode({ seq, ...record });
      // The record, and a zero length after it so that the list ends there.
      if (this.#offset + 8 + body.byteLength + 8 > this.capacity) return undefined;
      const bytes = new Uint8Array(8 + body.byteLength + 8);
      const head = new DataView(bytes.buffer);
      head.setUint32(0, body.byteLength);
      head.setUint32(4, checksum(body));
      bytes.set(body, 8);
      await writeAll(this.file, this.#offset, bytes);
      await this.file.syncData();
      this.#offset += 8 + body.byteLength;
      this.#seq = seq;
      return seq;
    });
  }

  /** Every record up to `seq` is stored; when nothing is left the list starts over. */
  stored(seq: number, nothingLeft: boolean): Promise<void> {
    return this.#serial(async () => {
      await this.#writeHeader(seq);
      if (nothingLeft && seq === this.#seq) {
        await writeAll(this.file, HEADER, new Uint8Array(8));
        this.#offset = HEADER;
      }
    });
  }

  /** Resolves when every record asked for so far is written. */
  async written(): Promise<void> {
    await this.#writing;
  }

  close() {
    try {
      this.file.close();
    } catch {
      // already closed
    }
  }
}
