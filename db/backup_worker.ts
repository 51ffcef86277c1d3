/// <reference lib="deno.worker" />
/**
 * Runs writeBackupFile on a thread of its own: VACUUM INTO and reading the media take seconds on
 * a large database, and the server's event loop and its database thread must go on meanwhile.
 */
import { writeBackupFile } from "./backup_file.ts";

type Job = {
  sourcePath: string;
  targetPath: string;
  mediaDir: string;
  info: Record<string, string>;
};

self.onmessage = (event: MessageEvent<Job>) => {
  const { sourcePath, targetPath, mediaDir, info } = event.data;
  try {
    self.postMessage({ ok: true, result: writeBackupFile(sourcePath, targetPath, mediaDir, info) });
  } catch (error) {
    self.postMessage({
      ok: false,
      message: error instanceof Error ? error.message : String(error),
    });
  }
};
