/**
 * Progress of an import, per table (issue 47): on a terminal one line redrawn in place with the
 * rate and the time left; otherwise (a log, a pipe) a plain line when a table starts and ends and
 * at most every 10 seconds between.
 */
export type Progress = {
  start(kind: string, total: number): void;
  advance(kind: string, rows: number): void;
  done(kind: string): void;
};

export function progressTo(
  write: (text: string) => void,
  terminal: boolean,
  now: () => number = () => performance.now(),
): Progress {
  let kind = "", total = 0, seen = 0, began = 0, lastLine = 0;
  const line = () => {
    const seconds = Math.max((now() - began) / 1000, 0.001);
    const rate = seen / seconds;
    const left = rate > 0 ? Math.ceil((total - seen) / rate) : 0;
    return `${kind}: ${seen}/${total} (${Math.round(rate)}/s, ${left} s left)`;
  };
  return {
    start(k, t) {
      kind = k, total = t, seen = 0, began = now(), lastLine = began;
      if (!terminal) write(`${kind}: ${total} to read\n`);
    },
    advance(_k, rows) {
      seen += rows;
      if (terminal) write(`\r\x1b[2K${line()}`);
      else if (now() - lastLine > 10_000) {
        lastLine = now();
        write(`${line()}\n`);
      }
    },
    done() {
      const seconds = ((now() - began) / 1000).toFixed(1);
      write(`${terminal ? "\r\x1b[2K" : ""}${kind}: ${seen} read in ${seconds} s\n`);
    },
  };
}
