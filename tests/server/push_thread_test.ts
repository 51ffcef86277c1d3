import assert from "node:assert/strict";
import { closePushThread, donePushThread, usePushThread } from "../../server/push/encrypter.ts";

/**
 * Issue 42: push encryption runs on a thread of the app's own (server/push/encrypter.ts). Ticks
 * share it (starting one costs more than ten pushes' encryption); a thread that failed is replaced
 * by the next tick; closeDeps ends it, and a request after that is refused, not left waiting.
 */
Deno.test("push thread - kept between ticks, replaced once failed, ended by the app's close", async () => {
  const app = {};
  const first = await usePushThread(app);
  donePushThread(app, first);
  const again = await usePushThread(app);
  assert.equal(again, first, "a second tick uses the same thread");
  donePushThread(app, again);

  first.close(); // as a crashed thread would be
  assert.equal(first.failed, true);
  const next = await usePushThread(app);
  assert.notEqual(next, first, "a failed thread is replaced");
  donePushThread(app, next);

  closePushThread(app);
  await assert.rejects(
    next.encrypt({
      subscription: { endpoint: "https://push.invalid/x", keys: { p256dh: "x", auth: "y" } },
      payload: "{}",
      options: {
        vapidDetails: { subject: "mailto:a@b.test", publicKey: "x", privateKey: "y" },
        TTL: 60,
        urgency: "high",
        contentEncoding: "aes128gcm",
      },
    }),
    /closed/,
  );
});
