/**
 * The sockets bench's browsers, in a process of their own (so that the server's memory is the
 * server's): opens `count` sockets with one token, prints "ready" once all are accepted, then
 * prints "got <n>" each time every socket has received one more `company-*-tag` event.
 * `wsUrls` may list several servers, comma-separated: the sockets are spread over them in turn
 * (fanout_bench.ts, two processes behind Redis).
 */
const [wsUrls, token, countText] = Deno.args;
const urls = wsUrls.split(",");
const count = Number(countText);
let received = 0;
let round = 0;
const out = (line: string) => Deno.stdout.writeSync(new TextEncoder().encode(`${line}\n`));

const sockets: WebSocket[] = [];
let ready = 0;
for (let i = 0; i < count; i++) {
  const ws = new WebSocket(`${urls[i % urls.length]}/socket?token=${token}`);
  ws.onmessage = (message) => {
    const text = String(message.data);
    // The server's heartbeat: unanswered, it closes the socket (server/realtime/socket.ts).
    if (text.includes('"event":"ping"')) ws.send(JSON.stringify({ event: "pong" }));
    if (text.includes('"event":"ready"')) {
      if (++ready === count) out("ready");
    } else if (text.includes("-tag")) {
      // Events sent in one turn leave in one frame, as an array (server/realtime/frames.ts).
      const parsed = JSON.parse(text) as { event: string } | { event: string }[];
      for (const event of Array.isArray(parsed) ? parsed : [parsed]) {
        if (!event.event.endsWith("-tag")) continue;
        if (++received === count * (round + 1)) out(`got ${++round}`);
      }
    }
  };
  sockets.push(ws);
  // Opening thousands at once overruns the listen backlog: a few at a time.
  if (i % 100 === 99) await new Promise((resolve) => setTimeout(resolve, 20));
}
