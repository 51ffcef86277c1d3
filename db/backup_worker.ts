/// <reference lib="deno.worker" />
/**
 * Runs writeBackupFile on a thread of its own: VACUUM INTO and reading the media take seconds on
 * a large database, and the server's event loop and its database thread must go on meanwhile.
 */
import { writeBackupFile, writeDumpBackupFile } from "./backup_file.ts";

type Job = {
  /** A libSQL file to copy, or (PostgreSQL) pg_dump's archive to put inside. */
  sourcePath: string;
  kind: "sqlite" | "dump";
  targetPath: string;
  mediaDir: string;
  info: Record<string, string>;
};

self.onmessage = (event: MessageEvent<Job>) => {
  const { sourcePath, kind, targetPath, mediaDir, info } = event.data;
  const write = kind === "dump" ? writeDumpBackupFile : writeBackupFile;
  try {
    self.postMessage({ ok: true, result: write(sourcePath, targetPath, mediaDir, info) });
  } catch (error) {
    self.postMessage({
      ok: false,
      message: error instanceof Error ? error.message : String(error),
    });
  }
};
