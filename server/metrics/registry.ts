import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";

/**
 * The process's Prometheus instruments (prom-client, the text format's reference client for
 * Node, which runs unchanged under Deno). Counters and histograms are per process, as Prometheus
 * expects: each process is scraped on its own and the server sums them. Gauges that describe the
 * database (outbox depth, sessions by status) are read when scraped (server/metrics/collect.ts).
 */
export const registry = new Registry();
collectDefaultMetrics({ register: registry, prefix: "balcao_" });

export const httpRequests = new Counter({
  name: "balcao_http_requests_total",
  help: "HTTP requests answered, by method, route pattern and status.",
  labelNames: ["method", "route", "status"] as const,
  registers: [registry],
});

export const httpDuration = new Histogram({
  name: "balcao_http_request_duration_seconds",
  help: "Time to answer an HTTP request, by method and route pattern.",
  labelNames: ["method", "route"] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  registers: [registry],
});

export const inboundMessages = new Counter({
  name: "balcao_inbound_messages_total",
  help: "WhatsApp messages received, by provider and result (stored, duplicate, ignored, error).",
  labelNames: ["provider", "result"] as const,
  registers: [registry],
});

export const outboundMessages = new Counter({
  name: "balcao_outbound_messages_total",
  help: "Outbox send attempts, by provider and result (sent, retry, failed).",
  labelNames: ["provider", "result"] as const,
  registers: [registry],
});

export const jobRuns = new Counter({
  name: "balcao_job_runs_total",
  help: "Background job ticks run, by job.",
  labelNames: ["job"] as const,
  registers: [registry],
});

export const jobFailures = new Counter({
  name: "balcao_job_failures_total",
  help: "Background job ticks that failed, by job.",
  labelNames: ["job"] as const,
  registers: [registry],
});

export const dbQueryDuration = new Histogram({
  name: "balcao_db_query_duration_seconds",
  help: "Time from posting a statement to the database thread to its answer (queue wait included).",
  buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1],
  registers: [registry],
});

export const dbQueueDepth = new Gauge({
  name: "balcao_db_thread_queue_depth",
  help: "Requests posted to the database thread and not yet answered.",
  registers: [registry],
});

export const dataFreeBytes = new Gauge({
  name: "balcao_data_free_bytes",
  help: "Free bytes of the file system under DATA_DIR (what the service user may write).",
  registers: [registry],
});

export const dataTotalBytes = new Gauge({
  name: "balcao_data_total_bytes",
  help: "Size of the file system under DATA_DIR.",
  registers: [registry],
});

export const storageFailing = new Gauge({
  name: "balcao_storage_failing",
  help: "1 while writes under DATA_DIR fail (full or unavailable), else 0.",
  registers: [registry],
});

export const inboundHeld = new Gauge({
  name: "balcao_inbound_held_events",
  help: "Inbound WhatsApp events held in memory because storage failed, waiting to be stored.",
  registers: [registry],
});

export const outboxDepth = new Gauge({
  name: "balcao_outbox_pending",
  help: "Outbox rows waiting to be sent (pending or sending).",
  registers: [registry],
});

export const outboxOldestAge = new Gauge({
  name: "balcao_outbox_oldest_pending_age_seconds",
  help: "Age of the oldest outbox row waiting to be sent; 0 when none waits.",
  registers: [registry],
});

export const whatsappSessions = new Gauge({
  name: "balcao_whatsapp_sessions",
  help: "WhatsApp connections by stored status.",
  labelNames: ["status"] as const,
  registers: [registry],
});

export const runningSessions = new Gauge({
  name: "balcao_whatsapp_sessions_running",
  help: "WhatsApp sessions running in this process.",
  registers: [registry],
});

export const openSockets = new Gauge({
  name: "balcao_open_sockets",
  help: "Browser WebSockets connected to this process.",
  registers: [registry],
});

export const passwordHashes = new Counter({
  name: "balcao_password_hashes_total",
  help: "bcrypt runs, by operation (hash a new password, verify a login): CPU spent on passwords.",
  labelNames: ["operation"] as const,
  registers: [registry],
});

/** Runs one tick of a background job, counting the run and, if it throws, the failure. */
export async function countedJob<T>(job: string, tick: () => Promise<T>): Promise<T> {
  jobRuns.inc({ job });
  try {
    return await tick();
  } catch (error) {
    jobFailures.inc({ job });
    throw error;
  }
}
