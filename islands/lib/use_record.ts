import { useEffect, useState } from "react";
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

/** `beforeRead`: called as each read starts (useRoomSync's markRead). */
export function usePageRecord<T>(path: string, beforeRead?: () => void): PageRecord<T> {
  const [record, setRecord] = useState<T | null>(null);
  const [missing, setMissing] = useState(false);
  const reload = () => {
    beforeRead?.();
    return api.get<T>(path, { quiet: true }).then(setRecord).catch((error) => {
      if (error instanceof ApiError && error.status === 404) setMissing(true);
      else toast.error(error);
    });
  };
  useEffect(() => {
    setMissing(false);
    void reload();
  }, [path]);
  return { record, missing, set: setRecord, reload };
}
