import { useEffect, useRef, useState } from "react";
import { api } from "./api.ts";
import { ApiError } from "./errors.ts";
import { toast } from "./toast.ts";

/**
 * A record a page opens by the id of its URL (/campaign/:id/report, /contact-lists/:id/contacts),
 * read once, quietly: `missing` when the server says it does not exist (another company's record
 * answers exactly the same, 404), then the page shows `RecordMissing` (ui/RecordMissing.tsx) and
 * asks nothing else, so the user reads one message and no toast. Any other failure is one toast.
 */
export type PageRecord<T> = {
  record: T | null;
  missing: boolean;
  set: (record: T) => void;
  /** Reads it again (a live change told only that something changed). */
  reload: () => Promise<void>;
};

/**
 * Which of a record's writes is the newest: a read's answer counts only if nothing was written
 * since that read began. A read begun before a live change can answer after it, with the state
 * from before it (a campaign's report stuck at 'Em andamento' after the socket said
 * 'Finalizada'); every later change comes with its own event, so dropping that answer loses
 * nothing.
 */
export class LatestWrite {
  #count = 0;
  /** A read begins: its ticket. */
  begin(): number {
    return ++this.#count;
  }
  /** A live change was written. */
  touch(): void {
    this.#count++;
  }
  /** Whether the read of `ticket` is still the newest write. */
  current(ticket: number): boolean {
    return ticket === this.#count;
  }
}

/** `beforeRead`: called as each read starts (useRoomSync's markRead). */
export function usePageRecord<T>(path: string, beforeRead?: () => void): PageRecord<T> {
  const [record, setRecord] = useState<T | null>(null);
  const [missing, setMissing] = useState(false);
  const latest = useRef(new LatestWrite()).current;
  const reload = () => {
    beforeRead?.();
    const ticket = latest.begin();
    return api.get<T>(path, { quiet: true }).then((read) => {
      if (latest.current(ticket)) setRecord(read);
    }).catch((error) => {
      if (error instanceof ApiError && error.status === 404) setMissing(true);
      else toast.error(error);
    });
  };
  const set = (live: T) => {
    latest.touch();
    setRecord(live);
  };
  useEffect(() => {
    setMissing(false);
    void reload();
  }, [path]);
  return { record, missing, set, reload };
}
