/// <reference lib="deno.worker" />
/**
 * The bench's 50 listening browsers, in a worker so that parsing their frames runs on the other
 * core, as real clients would not share the server's thread. Each socket joins the pending list
 * and notifications; every appMessage whose body carries a send time yields one latency sample.
 */
type Start = { wsUrl: string; tokens: string[] };

const samples: number[] = [];
let sockets: WebSocket[] = [];
let frames = 0;

function now() {
  return performance.timeOrigin + performance.now();
}

/**
 * The send times of the appMessage "create" events in a frame. Each event's message body appears
 * once in it (the ticket's lastMessage holds it too, so only the first stamp after each
 * `"action":"create"` counts).
 */
function benchStamps(text: string): number[] {
  const stamps: number[] = [];
  let from = 0;
  for (;;) {
    const create = text.indexOf('"action":"create"', from);
    if (create < 0) return stamps;
    const at = text.indexOf("bench|", create);
    if (at < 0) return stamps;
    stamps.push(Number(text.slice(at + 6, text.indexOf("|", at + 6))));
    from = at + 6;
  }
}

self.onmessage = async (event: MessageEvent) => {
  const message = event.data as { type: string } & Partial<Start>;
  if (message.type === "start") {
    sockets = await Promise.all(
      message.tokens!.map((token) =>
        new Promise<WebSocket>((resolve, reject) => {
          const ws = new WebSocket(`${message.wsUrl}/socket?token=${encodeURIComponent(token)}`);
          ws.onmessage = (frame) => {
            frames++;
            const text = String(frame.data);
            if (text.includes('"event":"ready"')) {
              ws.send(JSON.stringify({ event: "joinTickets", data: "pending" }));
              ws.send(JSON.stringify({ event: "joinNotification" }));
              resolve(ws);
              return;
            }
            // appMessage create events carry "bench|<sentAt>|" in the message body; a frame may
            // hold several events (server/realtime/frames.ts). Scanning the text instead of
            // parsing it keeps this harness's cost off the measurement.
            const receivedAt = now();
            for (const sentAt of benchStamps(text)) samples.push(receivedAt - sentAt);
          };
          ws.onerror = () => reject(new Error("socket failed"));
        })
      ),
    );
    self.postMessage({ type: "ready" });
  } else if (message.type === "collect") {
    self.postMessage({ type: "samples", samples: samples.splice(0), frames });
  } else if (message.type === "stop") {
    for (const ws of sockets) ws.close();
    self.postMessage({ type: "stopped" });
  }
};
