import { z } from "zod";
import { cleanMimetype } from "../media/store.ts";
import { log } from "../log.ts";
import { type BotDecision, type BotMedia, transientMedia } from "./bot.ts";
import { handOver, type IntegrationHandler, type IntegrationTurn } from "./integration.ts";
import { callService, callServiceBytes, parseJson, ServiceError } from "./service_call.ts";

/**
 * typebot integrations over typebot's chat API (docs.typebot.io 'API reference > Chat'):
 * `POST <url>/api/v1/typebots/<slug>/startChat` on the ticket's first message with the
 * contact's variables, then `POST <url>/api/v1/sessions/<sessionId>/continueChat` with each
 * message. The session id is kept on the ticket (tickets.botSession), written with the message.
 *
 * - text, image, audio and video bubbles are sent, `typebotDelayMessage` ms apart;
 * - `typebotKeywordFinish` hands the ticket to people; `typebotKeywordRestart` answers
 *   `typebotRestartMessage` and the next message starts the flow again;
 * - an answer that only repeats the input (the bot rejected the reply) sends
 *   `typebotUnknownMessage` when set;
 * - a session idle for more than `typebotExpires` minutes has expired: people take the ticket;
 * - a bubble containing HANDOVER_MARKER, or the end of the flow (no input asked), hands over;
 * - a choice input's options are sent as a list ("▶️ option"): the contact types one.
 */
export const HANDOVER_MARKER = "#atendente";

const richNode: z.ZodType<{ text?: string; children?: unknown[] }> = z.object({
  text: z.string().optional(),
  children: z.array(z.lazy(() => richNode)).optional(),
}).passthrough();

const bubble = z.object({
  type: z.string(),
  content: z.object({
    type: z.string().optional(),
    markdown: z.string().optional(),
    plainText: z.string().optional(),
    richText: z.array(richNode).optional(),
    url: z.string().optional(),
  }).passthrough().optional(),
}).passthrough();

const chatAnswer = z.object({
  sessionId: z.string().min(1).max(200).optional(),
  messages: z.array(bubble).max(50).default([]),
  input: z.object({
    type: z.string(),
    items: z.array(z.object({ content: z.string().max(500).optional() }).passthrough()).max(50)
      .optional(),
  }).passthrough().nullish(),
});

function flatten(nodes: readonly { text?: string; children?: unknown[] }[]): string {
  return nodes.map((node) =>
    node.text ?? flatten((node.children ?? []) as { text?: string; children?: unknown[] }[])
  ).join("");
}

function textOf(b: z.infer<typeof bubble>): string {
  const c = b.content;
  if (!c) return "";
  if (c.markdown !== undefined) return c.markdown;
  if (c.plainText !== undefined) return c.plainText;
  if (c.richText) return c.richText.map((block) => flatten([block])).join("\n");
  return "";
}

function baseUrl(url: string): string {
  return url.trim().replace(/\/+$/, "");
}

async function call(t: IntegrationTurn, path: string, body: unknown) {
  const answer = await callService(baseUrl(t.integration.urlN8N) + path, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  }, {
    timeoutMs: t.deps.config.integrationTimeoutMs,
    via: t.deps.via,
  });
  const parsed = chatAnswer.safeParse(parseJson(answer.text) ?? {});
  if (!parsed.success) throw new ServiceError("typebot answer does not match its API", false);
  return parsed.data;
}

/** Downloads a bubble's file into the media store (the bot's file is sent, not its link). */
async function fetchMedia(t: IntegrationTurn, url: string): Promise<BotMedia | undefined> {
  try {
    const { bytes, headers } = await callServiceBytes(url, { method: "GET" }, {
      timeoutMs: t.deps.config.integrationTimeoutMs,
      via: t.deps.via,
      retries: 1,
      maxBytes: t.deps.config.mediaMaxBytes,
    });
    const name = decodeURIComponent(new URL(url).pathname.split("/").pop() || "file");
    return await transientMedia(t.deps.config, t.turn.companyId, bytes, {
      mimetype: cleanMimetype(headers.get("content-type") ?? undefined),
      filename: name,
    });
  } catch (error) {
    // A missing picture does not stop the conversation: the texts still go out.
    log.warn("typebot: media not fetched", { url, error: String(error) });
    return undefined;
  }
}

export const typebotTurn: IntegrationHandler = async (t) => {
  const { turn, integration } = t;
  const text = turn.body.trim();
  const same = (keyword: string) =>
    keyword.trim() !== "" && text.toLowerCase() === keyword.trim().toLowerCase();
  if (same(integration.typebotKeywordFinish)) return handOver();
  if (same(integration.typebotKeywordRestart)) {
    const replies = integration.typebotRestartMessage.trim()
      ? [integration.typebotRestartMessage]
      : [];
    return { replies, changes: { botSession: null, botSessionAt: null } };
  }
  const { botSession, botSessionAt } = turn.ticket;
  const idleMs = botSessionAt ? turn.now.getTime() - Date.parse(botSessionAt) : 0;
  if (
    botSession && integration.typebotExpires > 0 && idleMs > integration.typebotExpires * 60_000
  ) {
    return handOver();
  }

  let sessionId = botSession;
  let answer: z.infer<typeof chatAnswer> | undefined;
  if (sessionId) {
    try {
      answer = await call(t, `/api/v1/sessions/${encodeURIComponent(sessionId)}/continueChat`, {
        message: { type: "text", text: turn.body },
        textBubbleContentFormat: "markdown",
      });
    } catch (error) {
      // typebot forgot the session (its own expiry, a redeploy): start the flow again.
      if (!(error instanceof ServiceError && error.status === 404)) throw error;
      sessionId = null;
    }
  }
  if (!sessionId || !answer) {
    answer = await call(
      t,
      `/api/v1/typebots/${encodeURIComponent(integration.typebotSlug)}/startChat`,
      {
        isStreamEnabled: false,
        textBubbleContentFormat: "markdown",
        prefilledVariables: {
          number: turn.contact.number,
          pushName: turn.contact.name,
          name: turn.contact.name,
          email: turn.contact.email,
          ticketId: turn.ticket.id,
          firstMessage: turn.body,
        },
      },
    );
    if (!answer.sessionId) throw new ServiceError("typebot startChat gave no sessionId", false);
    return await decisionOf(t, answer.sessionId, answer, false);
  }
  return await decisionOf(t, sessionId, answer, true);
};

async function decisionOf(
  t: IntegrationTurn,
  sessionId: string,
  answer: z.infer<typeof chatAnswer>,
  continued: boolean,
): Promise<BotDecision> {
  const { integration, turn } = t;
  const replies: string[] = [];
  const media: BotMedia[] = [];
  let human = false;
  for (const b of answer.messages) {
    if (b.type === "text") {
      let text = textOf(b);
      if (text.includes(HANDOVER_MARKER)) {
        human = true;
        text = text.replaceAll(HANDOVER_MARKER, "");
      }
      if (text.trim()) replies.push(text.trim());
    } else if (["image", "audio", "video"].includes(b.type) && b.content?.url) {
      const file = await fetchMedia(t, b.content.url);
      if (file) media.push(file);
    }
  }
  if (
    continued && answer.messages.length === 0 && answer.input &&
    integration.typebotUnknownMessage.trim()
  ) {
    replies.push(integration.typebotUnknownMessage);
  }
  // WhatsApp shows no buttons: a choice input's options go out as text; the contact types one.
  const choices = (answer.input?.type === "choice input" ? answer.input.items ?? [] : [])
    .map((item) => item.content?.trim() ?? "").filter((content) => content !== "");
  if (choices.length > 0 && !human) replies.push(choices.map((c) => `▶️ ${c}`).join("\n"));
  const spacingMs = integration.typebotDelayMessage;
  if (human || !answer.input) return { ...handOver(replies), media, spacingMs };
  return {
    replies,
    media,
    spacingMs,
    changes: { botSession: sessionId, botSessionAt: turn.now.toISOString() },
  };
}
