/// <reference lib="deno.worker" />
/**
 * The push encryption thread (issue 42): the payload's RFC 8291 encryption and the VAPID
 * signature (RFC 8292) are synchronous CPU work in the `web-push` library, ~15 ms a push. Done
 * here, a thousand pushes to a queue's devices leave the main thread free for inbound messages and
 * sockets (tests/bench/push_bench.ts). Requests are answered one after another, in order.
 */
import webpush from "web-push";

export type EncryptRequest = {
  id: number;
  subscription: { endpoint: string; keys: { p256dh: string; auth: string } };
  payload: string;
  options: {
    vapidDetails: { subject: string; publicKey: string; privateKey: string };
    TTL: number;
    urgency: "high";
    topic?: string;
    contentEncoding: "aes128gcm";
  };
};

export type EncryptAnswer =
  | { id: number; ok: true; endpoint: string; headers: Record<string, string>; body: Uint8Array }
  | { id: number; ok: false; error: string };

self.onmessage = (event: MessageEvent<EncryptRequest>) => {
  const { id, subscription, payload, options } = event.data;
  try {
    const details = webpush.generateRequestDetails(subscription, payload, options);
    // A copy with a buffer of its own, handed over (not copied again) to the main thread.
    const body = new Uint8Array(details.body as Uint8Array);
    const headers = details.headers as Record<string, string>;
    const answer: EncryptAnswer = { id, ok: true, endpoint: details.endpoint, headers, body };
    self.postMessage(answer, [body.buffer]);
  } catch (error) {
    const answer: EncryptAnswer = {
      id,
      ok: false,
      error: error instanceof Error ? error.message : String(error),
    };
    self.postMessage(answer);
  }
};

// Posted once the handler is set: the main thread sends nothing before (nothing is missed).
self.postMessage("ready");
