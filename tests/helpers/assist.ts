import assert from "node:assert/strict";
import type { TestApp, TestCompany } from "./app.ts";

/** Issue 48: turns assistant features on through the settings API, as an admin does. */
export async function assistOn(t: TestApp, c: TestCompany, features = ["assistTranscription"]) {
  for (const key of features) {
    const res = await t.request("PUT", `/api/settings/${key}`, {
      token: c.admin.token,
      body: { value: "enabled" },
    });
    assert.equal(res.status, 200, await res.clone().text());
  }
}

export const voiceNote = {
  base64: btoa("OggS fake voice note"),
  mimetype: "audio/ogg; codecs=opus",
};

/** POSTs the ticket's suggestions and expects a refusal with `code`. */
export async function suggestionsRefused(
  t: TestApp,
  token: string,
  ticketId: number,
  code: string,
) {
  const res = await t.request("POST", `/api/tickets/${ticketId}/suggestions`, { token });
  assert.equal(res.status, 403);
  assert.equal((await res.json()).error, code);
}
