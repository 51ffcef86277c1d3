import { statfs } from "node:fs/promises";
import { log } from "../log.ts";
import { type StorageProblem, storageProblem } from "./problem.ts";

export type StorageState = "ok" | StorageProblem;

/** Free and total bytes of the file system under a folder (statfs; what an unprivileged user may use). */
export type DiskSpace = { free: number; total: number };

export async function diskSpace(dir: string): Promise<DiskSpace> {
  const s = await statfs(dir);
  return { free: Number(s.bavail) * Number(s.bsize), total: Number(s.blocks) * Number(s.bsize) };
}

/** How much a probe writes: enough to need new blocks on a file system that has none left. */
const PROBE_BYTES = 64 * 1024;

/**
 * Whether writes under the data folder work (issue 34), told by the writes themselves: the first
 * one that fails for lack of space (or on an unwritable folder) starts the state, with ONE log line;
 * the state ends, with one line, when a probe write succeeds again. While it lasts /healthz answers
 * 503 and the jobs pause (jobs/registry.ts); nothing restarts.
 *
 * A probe writes, syncs and removes a small file in the data folder and in its media folder; it is
 * what /healthz and the paused jobs call, so storage that came back is noticed within a tick.
 */
export class StorageHealth {
  #state: StorageState = "ok";
  #since = 0;
  #refused = 0;
  #probing: Promise<StorageState> | undefined;
  readonly #recovered = new Set<() => void>();

  constructor(
    private readonly dataDir: string,
    private readonly mediaDir = `${dataDir}/media`,
  ) {}

  get state(): StorageState {
    return this.#state;
  }

  /**
   * Records an error if it is a storage problem; returns the problem (undefined for anything
   * else, which the caller handles as before).
   */
  report(error: unknown, where?: string): StorageProblem | undefined {
    const problem = storageProblem(error);
    if (!problem) return undefined;
    this.#refused++;
    if (this.#state !== problem) {
      const before = this.#state;
      this.#state = problem;
      if (before === "ok") this.#since = Date.now();
      log.error(
        problem === "full"
          ? "storage full: writes refused (507) and jobs paused until space is freed"
          : "storage unavailable: the data folder cannot be written (503); jobs paused",
        { dataDir: this.dataDir, where, reason: error instanceof Error ? error.message : error },
      );
    }
    return problem;
  }

  /** A write worked: the state, if any, ends (one log line) and the waiting work resumes. */
  writable() {
    if (this.#state === "ok") return;
    const was = this.#state;
    this.#state = "ok";
    // warn, like the line that began it: whoever watches for the one sees the other.
    log.warn("storage writable again", {
      was,
      refusedWrites: this.#refused,
      seconds: Math.round((Date.now() - this.#since) / 1000),
    });
    this.#refused = 0;
    for (const listener of [...this.#recovered]) listener();
  }

  /** Called each time storage comes back (retries of what was held). */
  onWritable(listener: () => void): () => void {
    this.#recovered.add(listener);
    return () => this.#recovered.delete(listener);
  }

  /**
   * While failing: tries a small write; ends the state when it works. One probe at a time; a
   * probe that began before this call (space may have been freed since) does not answer it: it is
   * waited for, then one more is made if storage still fails.
   */
  async probe(): Promise<StorageState> {
    if (this.#state === "ok") return "ok";
    const earlier = this.#probing;
    if (earlier) {
      // The earlier probe may have ended the state (read through the getter: it changed since).
      if (await earlier === "ok" || this.state === "ok") return "ok";
    }
    this.#probing ??= this.#probe().finally(() => this.#probing = undefined);
    return await this.#probing;
  }

  /**
   * probe(), but never waited for longer than `ms`: past it, the state known now. What answers a
   * health check must not wait on the disk it reports on: a write that stalls (a device that
   * stopped answering, an fsync behind gigabytes of writeback) kept /healthz silent for as long
   * (issue 44). The probe goes on, and ends the state when it works.
   */
  async probeWithin(ms: number): Promise<StorageState> {
    if (this.#state === "ok") return "ok";
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<StorageState>((resolve) => {
      timer = setTimeout(() => resolve(this.#state), ms);
    });
    try {
      return await Promise.race([this.probe(), late]);
    } finally {
      clearTimeout(timer);
    }
  }

  async #probe(): Promise<StorageState> {
    try {
      for (const dir of [this.dataDir, this.mediaDir]) await probeWrite(dir);
      this.writable();
    } catch (error) {
      if (!this.report(error, "probe")) log.warn("storage probe failed", { error });
    }
    return this.#state;
  }
}

async function probeWrite(dir: string) {
  await Deno.mkdir(dir, { recursive: true, mode: 0o700 });
  const path = `${dir}/.probe-${crypto.randomUUID()}`;
  try {
    const file = await Deno.open(path, { createNew: true, write: true, mode: 0o600 });
    try {
      const data = new Uint8Array(PROBE_BYTES);
      for (let done = 0; done < data.byteLength;) done += await file.write(data.subarray(done));
      await file.sync();
    } finally {
      file.close();
    }
  } finally {
    await Deno.remove(path).catch(() => {});
  }
}
