/**
 * Small real file systems for the storage tests (issue 34): a tmpfs of a few MB mounted on a
 * folder, filled to the last block, made read-only, freed. Mounting needs root (CAP_SYS_ADMIN);
 * where the machine refuses, `canMount` is false and the tests that need it say so and are
 * skipped (tests/api/storage_test.ts).
 */
import { createTestApp, type TestApp } from "./app.ts";

async function run(command: string, args: string[]): Promise<{ ok: boolean; text: string }> {
  try {
    const out = await new Deno.Command(command, { args, stdout: "piped", stderr: "piped" })
      .output();
    const text = new TextDecoder().decode(out.stderr) + new TextDecoder().decode(out.stdout);
    return { ok: out.success, text };
  } catch (error) {
    return { ok: false, text: String(error) };
  }
}

/** Whether this process may mount a tmpfs (tried once, on a throwaway folder). */
export const canMount: boolean = await (async () => {
  if (Deno.build.os !== "linux") return false;
  const dir = await Deno.makeTempDir({ prefix: "balcao-mount-probe-" });
  try {
    const mounted = await run("mount", ["-t", "tmpfs", "-o", "size=64k", "tmpfs", dir]);
    if (mounted.ok) await run("umount", [dir]);
    return mounted.ok;
  } finally {
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
})();

async function must(command: string, args: string[]) {
  const result = await run(command, args);
  if (!result.ok) throw new Error(`${command} ${args.join(" ")}: ${result.text}`);
}

/** A tmpfs of `bytes` on `dir` (made if missing). */
export async function mountSmallDisk(dir: string, bytes: number) {
  await Deno.mkdir(dir, { recursive: true, mode: 0o700 });
  await must("mount", ["-t", "tmpfs", "-o", `size=${bytes},mode=0700`, "tmpfs", dir]);
}

/** Read-only, or writable again, without unmounting (the files stay). */
export async function remount(dir: string, mode: "ro" | "rw") {
  await must("mount", ["-o", `remount,${mode}`, dir]);
}

export async function unmount(dir: string) {
  await must("umount", ["-l", dir]);
}

/**
 * Fills the file system under `dir` with one file until the next write fails for lack of space;
 * returns the filler's path (remove it to free the space).
 */
export async function fillDisk(dir: string): Promise<string> {
  const path = `${dir}/filler-${crypto.randomUUID()}`;
  const file = await Deno.open(path, { createNew: true, write: true });
  const chunk = new Uint8Array(64 * 1024);
  try {
    for (let size = chunk.byteLength; size >= 1;) {
      try {
        const written = await file.write(chunk.subarray(0, size));
        if (written < size) size = Math.max(1, written);
      } catch (error) {
        if (!/No space left|os error 28/.test(String(error))) throw error;
        if (size === 1) break;
        size = Math.floor(size / 2);
      }
    }
  } finally {
    file.close();
  }
  return path;
}

/** Free bytes under `dir`, as statfs tells them. */
export async function freeBytes(dir: string): Promise<number> {
  const { statfs } = await import("node:fs/promises");
  const s = await statfs(dir);
  return Number(s.bavail) * Number(s.bsize);
}

/** A test app whose DATA_DIR is a tmpfs of `bytes`, unmounted and removed after `fn`. */
export async function onSmallDisk(
  bytes: number,
  fn: (t: TestApp, dir: string) => Promise<void>,
): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "balcao-disk-" });
  await mountSmallDisk(dir, bytes);
  try {
    const t = await createTestApp({ DATA_DIR: dir });
    try {
      await fn(t, dir);
    } finally {
      await t.close();
    }
  } finally {
    await unmount(dir);
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
}

/**
 * A small ext4 file system (a loop-mounted image beside the test's folders) on `dir`: unlike a
 * tmpfs it can be frozen (`freeze`), which makes every write under it wait as a stalled disk
 * does (a device that stopped answering, an fsync behind gigabytes of writeback). Returns what
 * unmounts it and removes the image (thawing it first).
 */
export async function mountFreezableDisk(dir: string, bytes: number): Promise<() => Promise<void>> {
  await Deno.mkdir(dir, { recursive: true, mode: 0o700 });
  const image = await Deno.makeTempFile({ prefix: "balcao-ext4-", suffix: ".img" });
  await Deno.truncate(image, bytes);
  await must("mkfs.ext4", ["-q", "-F", image]);
  await must("mount", ["-o", "loop", image, dir]);
  return async () => {
    await run("fsfreeze", ["-u", dir]);
    await unmount(dir);
    await Deno.remove(image).catch(() => {});
  };
}

/** Every write under `dir` (a mountFreezableDisk) waits until `thaw`. */
export async function freeze(dir: string) {
  await must("fsfreeze", ["-f", dir]);
}

export async function thaw(dir: string) {
  await must("fsfreeze", ["-u", dir]);
}
