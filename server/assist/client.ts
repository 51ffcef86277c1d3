import type { AppDeps } from "../context.ts";
import { callServiceBytes, Circuit, ServiceError } from "../bots/service_call.ts";
import { type Fetcher, operatorFetch } from "../http/outbound_fetch.ts";
import type { AssistAccount } from "./account.ts";
import { type CallOutcome, type CallTarget, recordCall } from "./meter.ts";

export type { CallTarget };

/**
 * Issue 48: the two calls of an OpenAI-compatible service the assistant makes (OpenAI, Groq, a
 * local Whisper or llama server: chosen by base URL and model), through the bots' service call
 * (server/bots/service_call.ts: a per-call timeout, AI_TIMEOUT_MS). One attempt each: a
 * transcription's job tries again later, a person asks again. A circuit per company and base URL
 * (on the app's clock) stops calling after repeated failures, so a service that hangs is not
 * waited on by every job. Every call is metered and recorded (meter.ts), without message text.
 */
const circuits = new WeakMap<object, Circuit>();

export function assistCircuit(deps: Pick<AppDeps, "events" | "clock">): Circuit {
  let circuit = circuits.get(deps.events);
  if (!circuit) {
    circuit = new Circuit(() => deps.clock.now().getTime());
    circuits.set(deps.events, circuit);
  }
  return circuit;
}

export class CircuitOpen extends ServiceError {
  constructor() {
    super("circuit open", true);
  }
}

type CallDeps = Pick<AppDeps, "db" | "events" | "clock" | "outbound" | "config">;

function via(deps: CallDeps, account: AssistAccount): Fetcher {
  return account.companyUrl ? (url, init) => deps.outbound.fetch(url, init) : operatorFetch;
}

/** Why a call failed, in words for an admin (never the service's own text: it may echo input). */
export function failureText(error: unknown): string {
  if (error instanceof CircuitOpen) return "serviço indisponível (muitas falhas seguidas)";
  if (error instanceof ServiceError) {
    if (error.status === 401 || error.status === 403) return "chave de API recusada";
    if (error.status === 429) return "limite de uso do serviço (429)";
    if (error.status && error.status >= 500) return `serviço com erro (${error.status})`;
    if (error.message === "timed out") return "o serviço demorou demais";
    if (error.status) return `recusado pelo serviço (${error.status})`;
    return "serviço inacessível";
  }
  return "falha inesperada";
}

export function isWrongKey(error: unknown): boolean {
  return error instanceof ServiceError && (error.status === 401 || error.status === 403);
}

async function call(
  deps: CallDeps,
  account: AssistAccount,
  target: CallTarget,
  path: string,
  body: { bytes: Uint8Array; contentType: string },
  measure: (json: Record<string, unknown>) => Omit<CallOutcome, "ok" | "status" | "model">,
  model: string,
): Promise<Record<string, unknown>> {
  const circuit = assistCircuit(deps);
  const key = `assist:${target.companyId}:${account.baseUrl}`;
  if (circuit.isOpen(key)) throw new CircuitOpen();
  const headers: Record<string, string> = { "content-type": body.contentType };
  if (account.apiKey) headers.authorization = `Bearer ${account.apiKey}`;
  let json: Record<string, unknown>;
  let status: number;
  try {
    const answer = await callServiceBytes(`${account.baseUrl}${path}`, {
      method: "POST",
      headers,
      body: body.bytes,
    }, { timeoutMs: deps.config.ai.timeoutMs, via: via(deps, account), retries: 0 });
    status = answer.status;
    try {
      json = JSON.parse(new TextDecoder().decode(answer.bytes));
    } catch {
      throw new ServiceError("answer is not JSON", false, answer.status);
    }
  } catch (error) {
    const failure = error instanceof ServiceError ? error : new ServiceError(String(error), true);
    if (failure.retriable) circuit.failure(key);
    await recordCall(deps, target, {
      ok: false,
      status: failure.status ?? 0,
      model,
      tokens: 0,
      seconds: 0,
      costMicros: 0,
      wrongKey: isWrongKey(failure),
    });
    throw failure;
  }
  circuit.success(key);
  await recordCall(deps, target, { ok: true, status, model, ...measure(json) });
  return json;
}

/** Prices used for the estimate (US$): gpt-4o-mini per token in/out, whisper per second. */
const MICROS_PER_TOKEN_IN = 0.15;
const MICROS_PER_TOKEN_OUT = 0.6;
const MICROS_PER_SECOND_AUDIO = 100;
/** WhatsApp voice notes are Opus at ~16 kbit/s: seconds estimated when the service says none. */
const AUDIO_BYTES_PER_SECOND = 2000;

export async function transcribe(
  deps: CallDeps,
  account: AssistAccount,
  target: CallTarget,
  audio: { bytes: Uint8Array; filename: string; mimetype: string },
): Promise<string> {
  const form = new FormData();
  form.append(
    "file",
    new File([audio.bytes as Uint8Array<ArrayBuffer>], audio.filename, { type: audio.mimetype }),
  );
  form.append("model", account.transcriptionModel);
  form.append("response_format", "json");
  const encoded = new Response(form);
  const bytes = new Uint8Array(await encoded.arrayBuffer());
  const json = await call(
    deps,
    account,
    target,
    "/audio/transcriptions",
    { bytes, contentType: encoded.headers.get("content-type")! },
    (json) => {
      const said = Number(json.duration);
      const seconds = Math.max(
        1,
        Math.ceil(
          Number.isFinite(said) && said > 0 ? said : audio.bytes.length / AUDIO_BYTES_PER_SECOND,
        ),
      );
      return { tokens: 0, seconds, costMicros: seconds * MICROS_PER_SECOND_AUDIO };
    },
    account.transcriptionModel,
  );
  if (typeof json.text !== "string") throw new ServiceError("no text in the answer", false);
  return json.text.trim();
}

export type ChatMessage = { role: "system" | "user" | "assistant"; content: string };

export async function complete(
  deps: CallDeps,
  account: AssistAccount,
  target: CallTarget,
  messages: ChatMessage[],
  options: { maxTokens: number; json?: boolean },
): Promise<string> {
  const request: Record<string, unknown> = {
    model: account.chatModel,
    messages,
    temperature: 0.3,
    max_tokens: options.maxTokens,
  };
  if (options.json) request.response_format = { type: "json_object" };
  const json = await call(
    deps,
    account,
    target,
    "/chat/completions",
    {
      bytes: new TextEncoder().encode(JSON.stringify(request)),
      contentType: "application/json",
    },
    (json) => {
      const usage = (json.usage ?? {}) as Record<string, unknown>;
      const input = Number(usage.prompt_tokens) || 0;
      const output = Number(usage.completion_tokens) || 0;
      return {
        tokens: input + output,
        seconds: 0,
        costMicros: Math.ceil(input * MICROS_PER_TOKEN_IN + output * MICROS_PER_TOKEN_OUT),
      };
    },
    account.chatModel,
  );
  const choices = json.choices as { message?: { content?: unknown } }[] | undefined;
  const content = choices?.[0]?.message?.content;
  if (typeof content !== "string") throw new ServiceError("no text in the answer", false);
  return content.trim();
}
