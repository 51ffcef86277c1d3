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
            if (text.startsWith('{"event":"ready"')) {
              ws.send(JSON.stringify({ event: "joinTickets", data: "pending" }));
              ws.send(JSON.stringify({ event: "joinNotification" }));
              resolve(ws);
              return;
            }
            // appMessage create frames carry "bench|<sentAt>|" in the message body
            const at = text.indexOf("bench|");
            if (at < 0 || !text.includes('"action":"create"')) return;
            const sentAt = Number(text.slice(at + 6, text.indexOf("|", at + 6)));
            samples.push(now() - sentAt);
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
