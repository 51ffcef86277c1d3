import type OpenAIClient from "openai";
import type { Config } from "../config.ts";
import { unseal } from "../crypto/sealed.ts";
import { operatorFetch } from "../http/outbound_fetch.ts";
import { log } from "../log.ts";
import { readMedia } from "../media/store.ts";
import { type Bot, type BotDecision, type BotMedia, type BotTurn, transientMedia } from "./bot.ts";
import { HANDED_OVER } from "./integration.ts";
import { findPrompt, recentMessages } from "./repository.ts";
import { callServiceBytes, Circuit, ServiceError } from "./service_call.ts";

/**
 * The "prompt" bot (issue 15, seeds/002 'AI prompts'): a ticket whose queue or connection has a
 * prompt is answered by an assistant through the `openai` package (chat completions at
 * OPENAI_BASE_URL): the prompt as the system message, then the ticket's last `maxMessages`
 * messages. Audio from the contact is transcribed first. With a voice other than 'texto', the
 * answer also goes out as audio from Azure Speech's REST text-to-speech (TTS_URL).
 *
 * Hand-over: the model calls the `transfer_to_human` tool, or writes HANDOVER_MARKER; the ticket
 * then waits, pending, in the prompt's queue. Keys are unsealed here only, never logged.
 */
export const HANDOVER_TOOL = "transfer_to_human";
export const PROMPT_HANDOVER_MARKER = "#atendente";

const HANDOVER_RULE =
  `Quando o cliente pedir para falar com uma pessoa, ou quando você não puder ` +
  `ajudar, chame a função ${HANDOVER_TOOL}.`;

export type PromptBotDeps = { config: Config; dataKey: CryptoKey; circuit?: Circuit };

function escapeXml(text: string): string {
  return text.replace(
    /[<>&'"]/g,
    (c) => ({ "<": "&lt;", ">": "&gt;", "&": "&amp;", "'": "&apos;", '"': "&quot;" })[c]!,
  );
}

async function speak(
  config: Config,
  companyId: number,
  voice: { name: string; key: string; region: string },
  text: string,
): Promise<BotMedia | undefined> {
  const ssml = `<speak version='1.0' xml:lang='pt-BR'><voice name='${escapeXml(voice.name)}'>` +
    `${escapeXml(text)}</voice></speak>`;
  try {
    const { bytes } = await callServiceBytes(config.ttsUrl.replace("{region}", voice.region), {
      method: "POST",
      headers: {
        "content-type": "application/ssml+xml",
        "ocp-apim-subscription-key": voice.key,
        "x-microsoft-outputformat": "ogg-24khz-16bit-mono-opus",
        "user-agent": "balcao",
      },
      body: ssml,
    }, {
      timeoutMs: config.integrationTimeoutMs,
      // TTS_URL is the operator's; the region is letters and digits only (routes/api/prompts.ts).
      via: operatorFetch,
      retries: 1,
      maxBytes: config.mediaMaxBytes,
    });
    return await transientMedia(config, companyId, bytes, {
      mimetype: "audio/ogg",
      filename: "resposta.ogg",
    });
  } catch (error) {
    // The text answer still goes out.
    log.warn("prompt: text-to-speech failed", { companyId, error: String(error) });
    return undefined;
  }
}

type ChatMessage = { role: "user" | "assistant"; content: string };

async function history(turn: BotTurn, limit: number, current: string): Promise<ChatMessage[]> {
  const rows = turn.ticket.id === null
    ? []
    : await recentMessages(turn.db, turn.companyId, turn.ticket.id, Math.max(0, limit - 1));
  const past: ChatMessage[] = rows.reverse().filter((m) => m.body.trim() !== "").map((m) => ({
    role: m.fromMe ? "assistant" : "user",
    content: m.body.slice(0, 4000),
  }));
  return [...past, { role: "user", content: current.slice(0, 4000) }];
}

function serviceErrorOf(OpenAI: typeof OpenAIClient, error: unknown): ServiceError {
  if (error instanceof ServiceError) return error;
  if (error instanceof OpenAI.APIError) {
    const status = error.status ?? 0;
    return new ServiceError(
      `OpenAI ${status || "unreachable"}`,
      !status || status >= 500 || status === 429,
      status,
    );
  }
  return new ServiceError(String(error), true);
}

export function promptBot(deps: PromptBotDeps): Bot {
  const circuit = deps.circuit ?? new Circuit();
  const { config } = deps;
  return {
    kind: "prompt",
    async decide(turn: BotTurn): Promise<BotDecision> {
      const id = turn.ticket.promptId;
      const prompt = id === null ? undefined : await findPrompt(turn.db, turn.companyId, id);
      if (!prompt) return { replies: [], changes: HANDED_OVER };
      if (!turn.answer) return { replies: [], changes: {} };
      const toPeople: BotDecision = {
        replies: [],
        changes: { ...HANDED_OVER, queueId: prompt.queueId },
      };
      const key = `prompt:${prompt.id}`;
      if (circuit.isOpen(key)) return toPeople;
      // The client loads with the first AI turn, not at start (issue 33: few companies use it).
      const { default: OpenAI } = await import("openai");
      const client = new OpenAI({
        apiKey: await unseal(deps.dataKey, prompt.apiKey),
        baseURL: config.openaiBaseUrl,
        timeout: config.integrationTimeoutMs,
        maxRetries: 2,
      });
      try {
        let text = turn.body;
        if (turn.media?.type === "audio") {
          const bytes = await readMedia(config, turn.companyId, turn.media.path);
          if (bytes) {
            const file = new File(
              [new Uint8Array(bytes)],
              turn.media.path.split("/").pop() ?? "audio.ogg",
              {
                type: turn.media.mimetype,
              },
            );
            const transcription = await client.audio.transcriptions.create({
              file,
              model: config.openaiTranscriptionModel,
            });
            text = String(transcription.text ?? "").trim() || text;
          }
        }
        const completion = await client.chat.completions.create({
          model: config.openaiModel,
          temperature: prompt.temperature,
          max_tokens: prompt.maxTokens,
          messages: [
            { role: "system", content: `${prompt.prompt}\n\n${HANDOVER_RULE}` },
            ...await history(turn, prompt.maxMessages, text),
          ],
          tools: [{
            type: "function",
            function: {
              name: HANDOVER_TOOL,
              description: "Transfere a conversa para um atendente humano.",
              parameters: { type: "object", properties: { reason: { type: "string" } } },
            },
          }],
        });
        circuit.success(key);
        const message = completion.choices?.[0]?.message;
        let answer = typeof message?.content === "string" ? message.content : "";
        const handover = (message?.tool_calls ?? []).some((call) =>
          call.type === "function" && call.function.name === HANDOVER_TOOL
        ) || answer.includes(PROMPT_HANDOVER_MARKER);
        answer = answer.replaceAll(PROMPT_HANDOVER_MARKER, "").trim().slice(0, 4096);
        const replies = answer ? [answer] : [];
        const media: BotMedia[] = [];
        if (answer && prompt.voice !== "texto") {
          const voiceKey = await unseal(deps.dataKey, prompt.voiceKey);
          const audio = await speak(config, turn.companyId, {
            name: prompt.voice,
            key: voiceKey,
            region: prompt.voiceRegion,
          }, answer);
          if (audio) {
            media.push(audio);
          }
        }
        if (handover) {
          return { ...toPeople, replies, media };
        }
        return { replies, media, changes: {} };
      } catch (error) {
        const failure = serviceErrorOf(OpenAI, error);
        if (failure.retriable) circuit.failure(key);
        log.warn("prompt: the assistant failed; the ticket goes to people", {
          companyId: turn.companyId,
          promptId: prompt.id,
          error: failure.message,
        });
        return toPeople;
      }
    },
  };
}
