import type { AppDeps } from "../context.ts";
import { changeWithNote } from "../events/outgoing_repository.ts";
import { log } from "../log.ts";
import { readMedia } from "../media/store.ts";
import { loadTicketView, messageViews } from "../tickets/view_repository.ts";
import { assistGate } from "./account.ts";
import { CircuitOpen, failureText, isWrongKey, transcribe } from "./client.ts";
import { tellAdmins } from "./meter.ts";
import * as repo from "./repository.ts";
import { summarise } from "./service.ts";
import { ServiceError } from "../bots/service_call.ts";

/**
 * Issue 48: the `assist` job (jobs/registry.ts). Jobs are rows of assist_jobs, made by triggers
 * in the statement that stored a contact's voice note or a transfer/reopening (migration 0600):
 * the inbound pipeline never waits for a service. A tick claims due rows (repository
 * claimDueJobs: a guarded UPDATE; a claim whose process died is due again after LEASE_MS) and
 * works them a few at a time. The unique assist_jobs_once (companyId, kind, targetId, reason)
 * stops a second job for one message, so a voice note is transcribed once.
 *
 * A failure that may pass (timeout, 429, 5xx, the circuit open) is tried again later, up to
 * MAX_ATTEMPTS calls; a refused key tells the admins (once) and fails the job; the message then
 * keeps its audio and says why it has no text (transcriptError, the bubble's hover).
 */
const BATCH = 20;
export const ASSIST_CONCURRENCY = 4;
const LEASE_MS = 5 * 60_000;
const MAX_ATTEMPTS = 5;
const RETRY_BASE_MS = 30_000;

type JobDeps = Pick<
  AppDeps,
  "db" | "events" | "clock" | "outbound" | "config" | "secrets"
>;

/** Works due jobs, batch after batch while full ones come; answers how many were worked. */
export async function assistTick(deps: JobDeps, signal?: AbortSignal): Promise<number> {
  let total = 0;
  while (!signal?.aborted) {
    const worked = await assistBatch(deps, signal);
    total += worked;
    if (worked < BATCH) break;
  }
  return total;
}

async function assistBatch(deps: JobDeps, signal?: AbortSignal): Promise<number> {
  const now = deps.clock.now();
  const jobs = await repo.claimDueJobs(
    deps.db,
    now.toISOString(),
    new Date(now.getTime() + LEASE_MS).toISOString(),
    BATCH,
  );
  let next = 0;
  const worker = async () => {
    while (next < jobs.length && !signal?.aborted) {
      const job = jobs[next++];
      await runJob(deps, job).catch((error) =>
        log.error("assist: job failed", { jobId: job.id, kind: job.kind, error })
      );
    }
  };
  await Promise.all(Array.from({ length: ASSIST_CONCURRENCY }, worker));
  return jobs.length;
}

async function runJob(deps: JobDeps, job: repo.AssistJob) {
  const now = () => deps.clock.now().toISOString();
  const feature = job.kind === "transcription" ? "transcription" : "summary";
  const gate = await assistGate(deps, job.companyId, feature);
  if ("blocked" in gate) {
    if (gate.blocked === "cap") await tellAdmins(deps, job.companyId, "cap");
    return await repo.settleJob(deps.db, job, "skipped", gate.blocked, now());
  }
  try {
    if (job.kind === "summary") {
      await summarise(
        deps,
        gate.account,
        job.companyId,
        job.targetId,
        job.reason.split(":")[0],
        null,
      );
      return await repo.settleJob(deps.db, job, "done", null, now());
    }
    const message = await repo.audioMessage(deps.db, job.companyId, job.targetId);
    if (!message || message.isDeleted || !message.mediaUrl) {
      return await repo.settleJob(deps.db, job, "skipped", "no audio", now());
    }
    if (message.mediaPending) {
      // The file is not stored yet (media_retry brings it): not an attempt.
      const later = new Date(deps.clock.now().getTime() + RETRY_BASE_MS).toISOString();
      return await repo.deferJob(deps.db, job, later, job.attempts, "media pending", now());
    }
    const bytes = await readMedia(deps.config, job.companyId, message.mediaUrl);
    if (!bytes) return await repo.settleJob(deps.db, job, "skipped", "no audio file", now());
    const text = await transcribe(deps, gate.account, {
      companyId: job.companyId,
      feature: "transcription",
      entity: "message",
      entityId: message.id,
      userId: null,
    }, {
      bytes: new Uint8Array(bytes),
      filename: message.mediaName || message.mediaUrl.split("/").pop() || "audio.ogg",
      mimetype: message.mediaMimetype ?? "audio/ogg",
    });
    await showTranscript(deps, job.companyId, message.id, {
      transcript: text,
      transcriptError: null,
    });
    await repo.settleJob(deps.db, job, "done", null, now());
  } catch (error) {
    await failed(deps, job, error);
  }
}

async function failed(deps: JobDeps, job: repo.AssistJob, error: unknown) {
  const now = deps.clock.now();
  const why = failureText(error);
  const retriable = error instanceof ServiceError && error.retriable && !isWrongKey(error);
  // The circuit open made no call: not an attempt.
  const attempts = job.attempts + (error instanceof CircuitOpen ? 0 : 1);
  if (retriable && attempts < MAX_ATTEMPTS) {
    const later = new Date(now.getTime() + RETRY_BASE_MS * 2 ** Math.max(0, attempts - 1));
    await repo.deferJob(deps.db, job, later.toISOString(), attempts, why, now.toISOString());
    return;
  }
  await repo.settleJob(deps.db, job, "failed", why, now.toISOString());
  if (job.kind === "transcription") {
    await showTranscript(deps, job.companyId, job.targetId, {
      transcript: null,
      transcriptError: why,
    });
  }
}

/** Writes the transcript (or why none) and tells the ticket's viewers (message.updated). */
async function showTranscript(
  deps: JobDeps,
  companyId: number,
  messageId: number,
  values: { transcript: string | null; transcriptError: string | null },
) {
  const now = deps.clock.now().toISOString();
  const changed = await changeWithNote(
    deps.db,
    companyId,
    now,
    (trx) => repo.setTranscript(trx, companyId, messageId, values),
  );
  if (!changed) return;
  const ticket = await loadTicketView(deps.db, companyId, changed.row.ticketId);
  if (!ticket) return;
  const [message] = await messageViews(deps.db, companyId, [changed.row]);
  deps.events.emit("message.updated", { message, ticket, outgoing: changed.outgoing });
}
