/**
 * The soak bench's figures (soak_bench.ts): samples by kind, in buckets of the run's time (a
 * minute by default), printed as one table row per bucket. Not a benchmark itself.
 */

function quantile(sorted: number[], q: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
}

const ms = (n: number) => Number.isNaN(n) ? "-" : n < 10 ? n.toFixed(1) : n.toFixed(0);

export class Series {
  readonly #bucketMs: number;
  #t0 = 0;
  readonly #samples = new Map<string, number[][]>();
  readonly #errors: string[][] = [];
  readonly #marks: string[][] = [];
  /** The last cumulative figures by name seen in each bucket (the db statement counters). */
  readonly #snapshots: Map<string, number>[] = [];

  constructor(bucketSeconds: number) {
    this.#bucketMs = bucketSeconds * 1000;
  }

  start(t0: number) {
    this.#t0 = t0;
  }

  #bucket(at: number) {
    return Math.max(0, Math.floor((at - this.#t0) / this.#bucketMs));
  }

  add(kind: string, at: number, value: number) {
    if (!this.#t0 || Number.isNaN(value)) return;
    let buckets = this.#samples.get(kind);
    if (!buckets) this.#samples.set(kind, buckets = []);
    (buckets[this.#bucket(at)] ??= []).push(value);
  }

  error(at: number, what: string) {
    (this.#errors[this.#bucket(at)] ??= []).push(what);
  }

  mark(at: number, what: string) {
    (this.#marks[this.#bucket(at)] ??= []).push(what);
  }

  snapshot(at: number, figures: Map<string, number>) {
    if (this.#t0) this.#snapshots[this.#bucket(at)] = figures;
  }

  #of(kind: string, bucket: number): number[] {
    return [...(this.#samples.get(kind)?.[bucket] ?? [])].sort((a, b) => a - b);
  }

  #triple(kind: string, bucket: number): string {
    const s = this.#of(kind, bucket);
    return `${ms(quantile(s, 0.5))} / ${ms(quantile(s, 0.95))} / ${ms(quantile(s, 0.99))}`;
  }

  report(print: (line: string) => void) {
    const buckets = Math.max(...[...this.#samples.values()].map((b) => b.length), 0);
    const seconds = this.#bucketMs / 1000;
    print(
      "| from s | inbound → socket p50/p95/p99 ms (n) | lists p50/p95/p99 | reply p50/p95/p99 | " +
        "/healthz p50/p95/p99 | inbound POST p99 | RSS max MB | loop lag max ms | db queue max | " +
        "errors | load | what ran |",
    );
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |");
    for (let b = 0; b < buckets; b++) {
      const max = (kind: string) => {
        const s = this.#of(kind, b);
        return s.length ? s[s.length - 1] : NaN;
      };
      print(
        `| ${b * seconds} | ${this.#triple("socket", b)} (${this.#of("socket", b).length}) | ` +
          `${this.#triple("list", b)} | ${this.#triple("reply", b)} | ` +
          `${this.#triple("healthz", b)} | ${ms(quantile(this.#of("inbound", b), 0.99))} | ` +
          `${(max("rss") / 1024 / 1024).toFixed(0)} | ${ms(max("lagMax"))} | ` +
          `${ms(max("dbQueue"))} | ${this.#errors[b]?.length ?? 0} | ${max("load").toFixed(1)} | ` +
          `${(this.#marks[b] ?? []).join(", ")} |`,
      );
    }
    // The server's threads: share of one core each used per bucket (cumulative CPU, differenced).
    const threads = [...this.#samples.keys()].filter((k) => k.startsWith("cpu:"));
    const used = (kind: string, b: number) => {
      const s = this.#of(kind, b);
      return s.length ? s[s.length - 1] : NaN;
    };
    const busiest = threads.map((k) => ({ k, total: used(k, buckets - 1) || 0 }))
      .sort((a, b) => b.total - a.total).slice(0, 5).map((t) => t.k);
    if (busiest.length) {
      print("");
      print(`| from s | ${busiest.map((k) => `${k.slice(4)} % of a core`).join(" | ")} |`);
      print(`| --- |${busiest.map(() => " --- |").join("")}`);
      for (let b = 0; b < buckets; b++) {
        const cells = busiest.map((k) => {
          const delta = used(k, b) - (b ? used(k, b - 1) : 0);
          return Number.isNaN(delta) ? "-" : (delta / this.#bucketMs * 100).toFixed(0);
        });
        print(`| ${b * seconds} | ${cells.join(" | ")} |`);
      }
    }
    // The database thread: the statements that waited longest per bucket, with their run time.
    if (this.#snapshots.length) {
      print("");
      print("| from s | database thread: statement wait / run s (most waited first) |");
      print("| --- | --- |");
      let previous = new Map<string, number>();
      for (let b = 0; b < this.#snapshots.length; b++) {
        const now = this.#snapshots[b];
        if (!now) continue;
        const delta = (key: string) => (now.get(key) ?? 0) - (previous.get(key) ?? 0);
        const kinds = [...new Set([...now.keys()].map((k) => k.slice(0, k.lastIndexOf("|"))))];
        const top = kinds.map((k) => ({ k, wait: delta(`${k}|wait`), run: delta(`${k}|run`) }))
          .sort((x, y) => y.wait - x.wait).slice(0, 6);
        const total = kinds.reduce(
          (sum, k) => ({ wait: sum.wait + delta(`${k}|wait`), run: sum.run + delta(`${k}|run`) }),
          { wait: 0, run: 0 },
        );
        print(
          `| ${b * seconds} | all ${total.wait.toFixed(1)} / ${total.run.toFixed(1)}; ` +
            top.map((t) => `${t.k} ${t.wait.toFixed(1)} / ${t.run.toFixed(1)}`).join("; ") + " |",
        );
        previous = now;
      }
    }
    const errors = this.#errors.flat().filter(Boolean);
    if (errors.length) {
      const kinds = new Map<string, number>();
      for (const e of errors) kinds.set(e.slice(0, 160), (kinds.get(e.slice(0, 160)) ?? 0) + 1);
      print(`errors (${errors.length}):`);
      for (const [what, n] of [...kinds].slice(0, 10)) print(`  ${n} × ${what}`);
    }
  }
}

/** CPU ms used so far by each thread of a process, by thread name (threads of one name summed). */
export async function threadCpu(pid: number): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  for await (const task of Deno.readDir(`/proc/${pid}/task`)) {
    const stat = await Deno.readTextFile(`/proc/${pid}/task/${task.name}/stat`).catch(() => "");
    const name = task.name === String(pid)
      ? "main"
      : stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    if (fields.length < 13) continue;
    // utime and stime (fields 14 and 15 of stat), in ticks of 10 ms
    out.set(name, (out.get(name) ?? 0) + (Number(fields[11]) + Number(fields[12])) * 10);
  }
  return out;
}

/** Resident memory of a process and every process under it (what the server costs in all). */
export async function treeRss(pid: number): Promise<number> {
  const status = await Deno.readTextFile(`/proc/${pid}/status`);
  let total = Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? NaN) * 1024;
  for await (const task of Deno.readDir(`/proc/${pid}/task`)) {
    const children = await Deno.readTextFile(`/proc/${pid}/task/${task.name}/children`)
      .catch(() => "");
    for (const child of children.split(" ").filter(Boolean)) {
      total += await treeRss(Number(child)).catch(() => 0);
    }
  }
  return total;
}
