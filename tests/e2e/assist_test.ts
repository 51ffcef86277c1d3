import assert from "node:assert/strict";
import { createCompany } from "../helpers/app.ts";
import { withBrowser } from "../helpers/browser.ts";
import { fakeOpenAi } from "../fakes/openai.ts";
import { assistOn, voiceNote } from "../helpers/assist.ts";
import { connectSimulator, phoneSends } from "../whatsapp/helpers.ts";
import { assistTick } from "../../server/assist/jobs.ts";

/**
 * Issue 48 item 5's browser test, against the fake OpenAI-compatible server: a voice note shows
 * its transcript under the player; a transfer shows the summary at the top of the chat of who
 * receives it; a suggested reply fills the composer (nothing is sent).
 */
const KEY = "sk-assist-e2e-123456789012";
const SAID = "Bom dia! Queria saber se o pedido 4521 já saiu para entrega.";
const SUMMARY = "Cliente pergunta pela entrega do pedido 4521; pendente: código de rastreio.";
const REPLY = "Olá! O pedido 4521 saiu hoje; envio o código de rastreio em seguida.";

const openai = fakeOpenAi({ apiKey: KEY });
openai.state.transcript = SAID;
openai.state.reply = (body) =>
  body.messages[0].content.includes("Resuma")
    ? SUMMARY
    : JSON.stringify({ suggestions: [REPLY, "Posso ajudar em algo mais?"] });

Deno.test({
  name: "assist - a voice note's transcript, a transfer's summary, a suggestion in the composer",
  async fn() {
    try {
      await withBrowser(async ({ t, page, url, loginAs, pageErrors }) => {
        const c = await createCompany(t, "Alpha");
        await assistOn(t, c, ["assistTranscription", "assistSummary", "assistSuggestions"]);
        const whatsappId = await connectSimulator(t, c);
        const note = await phoneSends(t, c.admin.token, whatsappId, {
          from: "5511966661234",
          name: "Maria",
          media: voiceNote,
        });
        assert.equal(note.status, 201);
        const ticket = await t.deps.db.selectFrom("tickets").select(["id", "uuid"])
          .where("id", "=", note.ticketId!).executeTakeFirstOrThrow();
        // The user takes it; the admin watches the chat.
        const taken = await t.request("PUT", `/api/tickets/${ticket.id}`, {
          token: c.user.token,
          body: { status: "open", userId: c.user.id },
        });
        assert.equal(taken.status, 200, await taken.clone().text());
        await loginAs(page, c.admin);
        await page.goto(`${url}/tickets/${ticket.uuid}`);
        await page.getByTestId("ticket-view").waitFor();

        await assistTick(t.deps);
        const transcript = page.getByTestId("message-transcript");
        await transcript.getByText(SAID).waitFor();
        await transcript.getByText("transcrição").waitFor();

        const moved = await t.request("PUT", `/api/tickets/${ticket.id}`, {
          token: c.user.token,
          body: { action: "transfer", userId: c.admin.id },
        });
        assert.equal(moved.status, 200, await moved.clone().text());
        await assistTick(t.deps);
        await page.getByTestId("ticket-summary").getByText(SUMMARY).waitFor();

        await page.getByTestId("suggest").click();
        await page.getByTestId("suggestions").getByText(REPLY).click();
        await page.waitForFunction(
          (text) =>
            (document.querySelector("[data-testid=message-text]") as HTMLTextAreaElement)?.value ===
              text,
          REPLY,
        );
        // The settings' Assistente tab: this month's meter, as the fake server counted.
        await page.goto(`${url}/settings`);
        await page.getByRole("tab", { name: "Assistente" }).click();
        const meter = page.getByTestId("assist-meter");
        await meter.getByRole("row", { name: /Transcrição\s+1\s+0\s+5/ }).waitFor();
        await meter.getByRole("row", { name: /Sugestões\s+1\s+150/ }).waitFor();
        assert.deepEqual(openai.calls, { chat: 2, transcription: 1 });
        const outbox = await t.deps.db.selectFrom("outbox").select("id")
          .where("companyId", "=", c.id).execute();
        assert.deepEqual(outbox, []);
        assert.deepEqual(pageErrors, []);
      }, { env: { AI_BASE_URL: openai.baseUrl, AI_API_KEY: KEY } });
    } finally {
      await openai.close();
    }
  },
});
