import assert from "node:assert/strict";
import { eventually } from "../../tests/helpers/eventually.ts";
import { FrameCoalescer } from "./frames.ts";

function fakeSocket() {
  const frames: string[] = [];
  const socket = {
    readyState: WebSocket.OPEN as number,
    send: (text: string) => frames.push(text),
    close: () => {
      socket.readyState = WebSocket.CLOSED;
    },
  };
  return { frames, socket: socket as unknown as WebSocket };
}

/**
 * Resolves once the coalescers have flushed what is pending: a probe coalescer, dirtied now,
 * flushes in the same pass as every socket dirtied before it (frames.ts flushAll).
 */
async function flushed() {
  const probe = fakeSocket();
  new FrameCoalescer(probe.socket).send("{}");
  await eventually(() => probe.frames.length === 1, { what: "the probe's frame" });
}

Deno.test("frames - one event alone goes as itself; a turn's events go as one array, in order", async () => {
  const one = fakeSocket();
  const many = fakeSocket();
  const a = new FrameCoalescer(one.socket);
  const b = new FrameCoalescer(many.socket);
  a.send('{"event":"x","data":1}');
  b.send('{"event":"x","data":1}');
  b.send('{"event":"y","data":2}');
  assert.deepEqual(one.frames, []);
  await flushed();
  assert.deepEqual(one.frames, ['{"event":"x","data":1}']);
  assert.equal(many.frames.length, 1);
  assert.deepEqual(JSON.parse(many.frames[0]), [{ event: "x", data: 1 }, { event: "y", data: 2 }]);
  // The next turn starts a new frame.
  b.send('{"event":"z"}');
  await flushed();
  assert.deepEqual(many.frames.slice(1), ['{"event":"z"}']);
});

Deno.test("frames - close sends what is pending first; a closed socket refuses more", async () => {
  const s = fakeSocket();
  const c = new FrameCoalescer(s.socket);
  c.send('{"event":"last"}');
  c.close(1000, "bye");
  assert.deepEqual(s.frames, ['{"event":"last"}']);
  assert.throws(() => c.send('{"event":"late"}'));
  await flushed();
  assert.equal(s.frames.length, 1);
});
