/**
 * Issue 48 item 6: the attendant's assistant adds no inbound latency (transcriptions are queued
 * jobs), and how many transcription jobs a minute one process works against an OpenAI-compatible
 * service that takes 200 ms per call (tests/fakes/openai.ts, BENCH_ASSIST_DELAY_MS).
 *
 * 1. A contact sends BENCH_ASSIST_NOTES (default 40) voice notes one after another with
 *    transcription off, each timed from the simulator's POST to its stored receipt; then the same
 *    with transcription on and the `assist` job running (woken by each note): medians and p90s.
 * 2. BENCH_ASSIST_JOBS (default 200) voice notes are queued with the job stopped; then the job
 *    starts and the time until every one is transcribed gives the jobs per minute.
 * The meter's count of calls is printed beside the fake server's.
 *
 *   deno run -A tests/bench/assist_bench.ts
 */
import { createCompany, createTestApp } from "../helpers/app.ts";
import { connectSimulator, phoneSends } from "../whatsapp/helpers.ts";
import { fakeOpenAi } from "../fakes/openai.ts";
import { JOBS, startJobs } from "../../jobs/registry.ts";

const NOTES = Number(Deno.env.get("BENCH_ASSIST_NOTES") ?? 40);
const JOB_COUNT = Number(Deno.env.get("BENCH_ASSIST_JOBS") ?? 200);
const DELAY_MS = Number(Deno.env.get("BENCH_ASSIST_DELAY_MS") ?? 200);
const KEY = "sk-bench-assist-000000000000";
const encoder = new TextEncoder();
const print = (line: string) => Deno.stdout.writeSync(encoder.encode(`${line}\n`));
const quantile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
};
const audio = { base64: btoa("OggS bench voice note ".repeat(200)), mimetype: "audio/ogg" };

const openai = fakeOpenAi({ apiKey: KEY });
openai.state.delayMs = DELAY_MS;
openai.state.transcript = "Olá, gostaria de saber o horário de funcionamento amanhã.";
const t = await createTestApp({ AI_BASE_URL: openai.baseUrl, AI_API_KEY: KEY, LOG_LEVEL: "warn" });
const assistJob = JOBS.filter((job) => job.name === "assist");
try {
  const c = await createCompany(t, "Bench");
  const whatsappId = await connectSimulator(t, c);
  const inbound = async (from: string) => {
    const times: number[] = [];
    for (let i = 0; i < NOTES; i++) {
      const started = performance.now();
      const delivery = await phoneSends(t, c.user.token, whatsappId, { from, media: audio });
      if (delivery.status !== 201) throw new Error(`not stored: ${delivery.status}`);
      times.push(performance.now() - started);
    }
    return times;
  };
  const pending = async () =>
    Number(
      (await t.deps.db.selectFrom("assist_jobs").select((eb) => eb.fn.countAll().as("n"))
        .where("companyId", "=", c.id).where("status", "in", ["pending", "running"])
        .executeTakeFirstOrThrow()).n,
    );
  const untilDone = async () => {
    while (await pending() > 0) await new Promise((resolve) => setTimeout(resolve, 50));
  };
  const setting = async (key: string, value: string) => {
    const res = await t.request("PUT", `/api/settings/${key}`, {
      token: c.admin.token,
      body: { value },
    });
    if (res.status !== 200) throw new Error(await res.text());
  };

  const off = await inbound("5511900000001");
  await setting("assistTranscription", "enabled");
  let stop = startJobs(t.deps, assistJob);
  const on = await inbound("5511900000002");
  await untilDone();
  await stop();
  const ms = (v: number) => `${v.toFixed(1)} ms`;
  print(`assist bench: ${NOTES} voice notes each way, service at ${DELAY_MS} ms per call`);
  print(
    `  inbound, transcription off: median ${ms(quantile(off, 0.5))}, p90 ${ms(quantile(off, 0.9))}`,
  );
  print(
    `  inbound, transcription on:  median ${ms(quantile(on, 0.5))}, p90 ${ms(quantile(on, 0.9))}`,
  );

  // Queued with the job stopped, then worked.
  for (let i = 0; i < JOB_COUNT; i++) {
    await phoneSends(t, c.user.token, whatsappId, { from: "5511900000003", media: audio });
  }
  const started = performance.now();
  stop = startJobs(t.deps, assistJob);
  await untilDone();
  const seconds = (performance.now() - started) / 1000;
  await stop();
  print(
    `  ${JOB_COUNT} transcription jobs in ${seconds.toFixed(1)} s: ` +
      `${Math.round(JOB_COUNT / seconds * 60)} jobs per minute`,
  );
  const usage = await t.deps.db.selectFrom("assist_usage").select(["calls", "failures"])
    .where("companyId", "=", c.id).where("feature", "=", "transcription")
    .executeTakeFirstOrThrow();
  print(
    `  meter: ${usage.calls} calls (${usage.failures} failed); fake server received ` +
      `${openai.calls.transcription}`,
  );
} finally {
  await t.close();
  await openai.close();
}
