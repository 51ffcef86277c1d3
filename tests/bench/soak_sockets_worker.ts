/// <reference lib="deno.worker" />
/**
 * The soak bench's browser tabs (soak_bench.ts), in a worker so that reading their frames does
 * not share the thread that times the requests. Each socket joins the pending and open lists and
 * the notifications, as the /tickets page does. An inbound message's body carries
 * "soak|<seq>|<sentAt>|"; the first socket of an attendant to receive its `appMessage` create
 * event gives the message's one latency sample (later tabs hearing it too are not counted).
 */
type Start = { wsUrl: string; sockets: { token: string; attendant: boolean }[] };

/** [seq, ms from send to the first attendant socket] since the last collect. */
let samples: [number, number][] = [];
const seen = new Set<number>();
let sockets: WebSocket[] = [];
let closedUnasked = 0;
let stopping = false;

function now() {
  return performance.timeOrigin + performance.now();
}

/** Scans the frame's text (parsing it would put this harness's cost into the figure). */
function record(text: string, receivedAt: number) {
  let from = 0;
  for (;;) {
    const create = text.indexOf('"action":"create"', from);
    if (create < 0) return;
    const at = text.indexOf("soak|", create);
    if (at < 0) return;
    const seqEnd = text.indexOf("|", at + 5);
    const seq = Number(text.slice(at + 5, seqEnd));
    const sentAt = Number(text.slice(seqEnd + 1, text.indexOf("|", seqEnd + 1)));
    if (!seen.has(seq)) {
      seen.add(seq);
      samples.push([seq, receivedAt - sentAt]);
    }
    from = seqEnd;
  }
}

function open(wsUrl: string, token: string, attendant: boolean): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`${wsUrl}/socket?token=${encodeURIComponent(token)}`);
    ws.onmessage = (frame) => {
      const receivedAt = now();
      const text = String(frame.data);
      // The server's heartbeat: unanswered, it closes the socket (server/realtime/socket.ts).
      if (text.includes('"event":"ping"')) ws.send(JSON.stringify({ event: "pong" }));
      if (text.includes('"event":"ready"')) {
        ws.send(JSON.stringify({ event: "joinTickets", data: "pending" }));
        ws.send(JSON.stringify({ event: "joinTickets", data: "open" }));
        ws.send(JSON.stringify({ event: "joinNotification" }));
        resolve(ws);
        return;
      }
      if (attendant) record(text, receivedAt);
    };
    ws.onclose = () => {
      if (!stopping) closedUnasked++;
    };
    ws.onerror = () => reject(new Error("socket failed"));
  });
}

self.onmessage = async (event: MessageEvent) => {
  const message = event.data as { type: string } & Partial<Start>;
  if (message.type === "start") {
    sockets = await Promise.all(
      message.sockets!.map((s) => open(message.wsUrl!, s.token, s.attendant)),
    );
    self.postMessage({ type: "ready" });
  } else if (message.type === "collect") {
    self.postMessage({ type: "samples", samples, closed: closedUnasked });
    samples = [];
  } else if (message.type === "stop") {
    stopping = true;
    for (const ws of sockets) ws.close();
    self.postMessage({ type: "stopped" });
  }
};
