import { Hono } from "hono";
import { serveFake } from "./serve.ts";

/**
 * OpenAI's REST API as documented (platform.openai.com 'Chat Completions', 'Audio
 * transcriptions') and Azure Speech's text-to-speech REST endpoint, for the prompt bot. The
 * assistant answers with the last user message echoed; a message with "humano" gets a
 * `transfer_to_human` tool call. `down` makes chat completions answer 503.
 *
 * For the attendant's assistant (issue 48): `state.transcript` is what every transcription says,
 * `state.delayMs` holds each answer that long (a slow service), `state.failWith` answers the next
 * calls with those statuses (429, 500...) one each, `state.reply` writes a chat answer from the
 * request (a model that obeys what it reads), and `calls` counts every request received.
 */
export function fakeOpenAi(options: { apiKey: string; voiceKey?: string }) {
  const chats: {
    model: string;
    messages: { role: string; content: string }[];
    temperature: number;
    max_tokens: number;
  }[] = [];
  const transcriptions: { model: string; size: number }[] = [];
  const speeches: string[] = [];
  const state: {
    down: boolean;
    transcript: string;
    delayMs: number;
    failWith: number[];
    reply?: (body: { messages: { role: string; content: string }[] }) => string;
  } = { down: false, transcript: "qual o horário de funcionamento?", delayMs: 0, failWith: [] };
  const calls = { chat: 0, transcription: 0 };
  const app = new Hono();
  app.use("*", async (c, next) => {
    if (c.req.path.endsWith("/chat/completions")) calls.chat++;
    if (c.req.path.endsWith("/audio/transcriptions")) calls.transcription++;
    if (state.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, state.delayMs));
    const status = state.failWith.shift();
    if (status !== undefined) {
      return c.json({ error: { message: `fake ${status}` } }, status as 429 | 500);
    }
    await next();
  });
  const authorised = (header: string | undefined) => header === `Bearer ${options.apiKey}`;
  app.post("/v1/chat/completions", async (c) => {
    if (!authorised(c.req.header("authorization"))) {
      return c.json({
        error: { message: "Incorrect API key provided", type: "invalid_request_error" },
      }, 401);
    }
    if (state.down) return c.json({ error: { message: "overloaded" } }, 503);
    const body = await c.req.json();
    chats.push(body);
    const last = body.messages.at(-1)?.content ?? "";
    if (state.reply) {
      return c.json({
        id: `chatcmpl-${crypto.randomUUID()}`,
        object: "chat.completion",
        created: 1_764_000_000,
        model: body.model,
        usage: { prompt_tokens: 120, completion_tokens: 30, total_tokens: 150 },
        choices: [{
          index: 0,
          finish_reason: "stop",
          message: { role: "assistant", content: state.reply(body) },
        }],
      });
    }
    const base = {
      id: `chatcmpl-${crypto.randomUUID()}`,
      object: "chat.completion",
      created: 1_764_000_000,
      model: body.model,
      usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
    };
    if (String(last).includes("humano")) {
      return c.json({
        ...base,
        choices: [{
          index: 0,
          finish_reason: "tool_calls",
          message: {
            role: "assistant",
            content: "Vou transferir você.",
            tool_calls: [{
              id: "call_1",
              type: "function",
              function: { name: "transfer_to_human", arguments: '{"reason":"pedido"}' },
            }],
          },
        }],
      });
    }
    return c.json({
      ...base,
      choices: [{
        index: 0,
        finish_reason: "stop",
        message: { role: "assistant", content: `Assistente: ${last}` },
      }],
    });
  });
  app.post("/v1/audio/transcriptions", async (c) => {
    if (!authorised(c.req.header("authorization"))) return c.json({ error: {} }, 401);
    // A caller that gave up (its timeout) leaves no body to read.
    const form = await c.req.parseBody().catch(() => undefined);
    if (!form) return c.body(null, 499 as 400);
    const file = form.file as File;
    transcriptions.push({ model: String(form.model), size: file.size });
    return c.json({ text: state.transcript, duration: 4.2 });
  });
  app.post("/tts/:region/cognitiveservices/v1", async (c) => {
    if (c.req.header("ocp-apim-subscription-key") !== options.voiceKey) return c.body(null, 401);
    speeches.push(await c.req.text());
    return c.body(new Uint8Array([0x4f, 0x67, 0x67, 0x53, 0, 2]), 200, {
      "content-type": "audio/ogg",
    });
  });
  const server = serveFake(app);
  return {
    ...server,
    baseUrl: `${server.url}/v1`,
    ttsUrl: `${server.url}/tts/{region}/cognitiveservices/v1`,
    chats,
    transcriptions,
    speeches,
    state,
    calls,
  };
}
