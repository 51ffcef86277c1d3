import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import { createCompany, type TestApp } from "../helpers/app.ts";
import { sendDueSchedules } from "../../server/schedules/sending.ts";
import { eventually } from "../helpers/eventually.ts";
import { DEFAULT_TIME_ZONE, zonedInputValue } from "../../contract/time_zone.ts";
import { type Page, toastShown, withBrowser } from "../helpers/browser.ts";

async function api<T>(t: TestApp, token: string, method: string, path: string, body?: unknown) {
  const res = await t.request(method, path, { token, body });
  const text = await res.text();
  assert.ok(res.ok, `${method} ${path}: ${res.status} ${text}`);
  return (text ? JSON.parse(text) : undefined) as T;
}

/** What the simulator's phone received (its record of the connection's sends) with `match`. */
function sentBySimulator(t: TestApp, whatsappId: number, match: string) {
  return eventually(
    () =>
      t.deps.db.selectFrom("simulator_sent").selectAll().where("whatsappId", "=", whatsappId)
        .where("body", "like", `%${match}%`).executeTakeFirst(),
    { timeoutMs: 20_000 },
  );
}

/** A time as the schedule dialog's <input type="datetime-local"> takes it: the company's clock. */
function inputTime(_page: Page, at: Date): Promise<string> {
  // Typed on the company's clock (default São Paulo), whatever the browser's zone (issue 24).
  return Promise.resolve(zonedInputValue(at, DEFAULT_TIME_ZONE));
}

/** The row of a list whose text contains `text`. */
function row(page: Page, testId: string, text: string) {
  return page.getByTestId(testId).filter({ hasText: text });
}

// One browser and one company for the three list pages of issue 10 (tags, quick messages,
// schedules): each part starts on its own page and waits for what the user sees.
Deno.test("attendance tools - tags, quick messages and schedules pages", () =>
  withBrowser(async ({ t, page, url, loginAs, pageErrors }) => {
    const c = await createCompany(t, "Acme");
    // A simulator connection and a ticket from the phone, accepted by the admin (before the browser's login ends
    // this API session).
    const whatsapp = await api<{ id: number }>(t, c.admin.token, "POST", "/api/whatsapp", {
      name: "Simulador",
      provider: "simulator",
      isDefault: true,
    });
    await api(t, c.admin.token, "POST", `/api/simulator/${whatsapp.id}/scan`);
    await api(t, c.admin.token, "POST", `/api/simulator/${whatsapp.id}/messages`, {
      from: "5511988887777",
      name: "Carlos Cliente",
      body: "Qual o preço?",
    });
    const ticket = await t.deps.db.selectFrom("tickets").select(["id", "uuid"])
      .where("companyId", "=", c.id).executeTakeFirstOrThrow();
    await api(t, c.admin.token, "PUT", `/api/tickets/${ticket.id}`, { status: "open" });

    await loginAs(page, c.admin, { expectPath: "/" });

    // /tags: the dialog's rules, a kanban tag saved, its chip in the list, search, delete.
    await page.goto(`${url}/tags`);
    await page.getByText("Nenhuma tag encontrada").waitFor();
    await page.getByRole("button", { name: "Nova tag" }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByTestId("tag-submit").click();
    await dialog.getByText("Obrigatório").waitFor();
    await dialog.locator("input[name=name]").fill("Ab");
    await dialog.getByTestId("tag-submit").click();
    await dialog.getByText("Mensagem muito curta").waitFor();
    await dialog.locator("input[name=name]").fill("Em negociação");
    await dialog.locator("input[name=color]").fill("#2196f3");
    await dialog.getByTestId("tag-kanban").check();
    await dialog.getByTestId("tag-submit").click();
    await toastShown(page, "Tag salva com sucesso!");
    await row(page, "tag-row", "Em negociação").waitFor();
    const tag = await t.deps.db.selectFrom("tags").selectAll().where("companyId", "=", c.id)
      .executeTakeFirstOrThrow();
    assert.deepEqual([tag.name, tag.color, tag.kanban], ["Em negociação", "#2196f3", 1]);
    // Another tag arrives live (created by someone else through the API).
    await t.request("POST", "/api/tags", { token: c.user.token, body: { name: "Retornar" } });
    await row(page, "tag-row", "Retornar").waitFor();
    await page.getByTestId("tags-search").fill("neg");
    await row(page, "tag-row", "Retornar").waitFor({ state: "detached" });
    await row(page, "tag-row", "Em negociação").getByRole("button", { name: "Excluir" }).click();
    await page.getByRole("alertdialog").getByRole("button", { name: "Excluir" }).click();
    await toastShown(page, "Tag excluída com sucesso!");
    await row(page, "tag-row", "Em negociação").waitFor({ state: "detached" });

    // /quick-messages: shortcode required; an answer with a file (spaces shown as underscores).
    await page.goto(`${url}/quick-messages`);
    await page.getByText("Nenhuma resposta rápida encontrada").waitFor();
    await page.getByRole("button", { name: "Adicionar" }).click();
    await dialog.getByTestId("quick-message-submit").click();
    await dialog.getByText("Obrigatório").waitFor();
    // Who will see it is said, and follows 'Global' (issue 50 item 10).
    const audience = dialog.getByTestId("quick-message-audience");
    await audience.getByText("Quem verá: só você").waitFor();
    await dialog.getByTestId("quick-message-geral").check();
    await audience.getByText("Quem verá: todos os usuários da empresa.").waitFor();
    await dialog.getByTestId("quick-message-geral").uncheck();
    await audience.getByText("Quem verá: só você").waitFor();
    await dialog.locator("input[name=shortcode]").fill("tabela");
    await dialog.locator("textarea[name=message]").fill("Segue a tabela de preços");
    const pdf = Buffer.from("%PDF-1.4 tabela de preços");
    await dialog.getByTestId("quick-message-file").setInputFiles({
      name: "Tabela de preços.pdf",
      mimeType: "application/pdf",
      buffer: pdf,
    });
    await dialog.getByTestId("quick-message-attachment").getByText("Tabela_de_preços.pdf")
      .waitFor();
    await dialog.getByTestId("quick-message-submit").click();
    await toastShown(page, "Resposta rápida salva com sucesso!");
    await row(page, "quick-row", "Tabela_de_preços.pdf").waitFor();

    // A company with many answers (more than any page of a list).
    const at = new Date().toISOString();
    await t.deps.db.insertInto("quick_messages").values(
      Array.from({ length: 55 }, (_, i) => ({
        companyId: c.id,
        userId: c.admin.id,
        shortcode: `aviso${String(i).padStart(2, "0")}`,
        message: `Aviso número ${i}`,
        geral: 1,
        mediaPath: null,
        mediaName: null,
        createdAt: at,
        updatedAt: at,
      })),
    ).execute();

    // In the ticket, '/' offers it; picking it puts the text and the file in the input.
    await page.goto(`${url}/tickets/${ticket.uuid}`);
    const input = page.getByTestId("message-text");
    // "/" alone lists every answer, all 56 (issue 50 item 10), then the shortcode narrows them.
    await input.fill("/");
    const listed = page.getByTestId("quick-answers");
    await listed.getByText(/tabela - Segue/).waitFor();
    assert.equal(await listed.getByRole("option").count(), 56);
    // The keyboard reaches the last (the list wraps from the first): it is scrolled into view.
    await input.press("ArrowUp");
    const last = listed.getByRole("option", { selected: true });
    await last.getByText(/tabela - Segue/).waitFor();
    assert.ok(
      await last.evaluate((item) => {
        const box = item.getBoundingClientRect();
        const list = item.parentElement!.getBoundingClientRect();
        return box.top >= list.top - 0.5 && box.bottom <= list.bottom + 0.5;
      }),
      "the chosen answer is in the list's view",
    );
    await input.fill("/tab");
    await page.getByTestId("quick-answers").getByText(/tabela - Segue/).waitFor();
    await input.press("Enter");
    await page.getByTestId("attachments").getByText("Tabela_de_preços.pdf").waitFor();
    assert.equal(await input.inputValue(), "Segue a tabela de preços");
    await input.press("Enter");
    const sent = await sentBySimulator(t, whatsapp.id, "Segue a tabela");
    assert.deepEqual(
      { to: sent.toJid, filename: sent.mediaName, size: sent.mediaSize },
      {
        to: "5511988887777@s.whatsapp.net",
        filename: "Tabela_de_preços.pdf",
        size: pdf.byteLength,
      },
    );

    // The same dialog from the ticket's options, its contact fixed; a later send time waits.
    await page.getByTestId("ticket-options").click();
    await page.getByRole("menuitem", { name: "Agendar mensagem" }).click();
    await dialog.getByText("Para Carlos Cliente").waitFor();
    await dialog.getByTestId("schedule-body").fill("Retorno combinado no ticket");
    await dialog.getByTestId("schedule-at")
      .fill(await inputTime(page, new Date(t.clock.now().getTime() + 3 * 3600_000)));
    await dialog.getByTestId("schedule-submit").click();
    await toastShown(page, "Agendamento criado com sucesso!");
    const fromTicket = await t.deps.db.selectFrom("schedules").selectAll()
      .where("body", "=", "Retorno combinado no ticket").executeTakeFirstOrThrow();
    assert.deepEqual([fromTicket.ticketId, fromTicket.status], [ticket.id, "PENDENTE"]);

    // /schedules?contactId=N opens the dialog for that contact; the job sends it; the row turns
    // sent live. The send time is typed in the browser's local time, 5 minutes after the app's
    // (test) clock.
    const contact = await t.deps.db.selectFrom("contacts").select("id")
      .where("companyId", "=", c.id).executeTakeFirstOrThrow();
    await page.goto(`${url}/schedules?contactId=${contact.id}`);
    await dialog.getByText("Para Carlos Cliente").waitFor();
    await dialog.getByTestId("schedule-body").fill("Oi");
    await dialog.getByTestId("schedule-submit").click();
    await dialog.getByText("Mensagem muito curta").waitFor();
    await dialog.getByTestId("schedule-body").fill("Lembrete: sua proposta vence amanhã");
    const local = await inputTime(page, new Date(t.clock.now().getTime() + 5 * 60_000));
    await dialog.getByTestId("schedule-at").fill(local);
    await dialog.getByTestId("schedule-submit").click();
    await toastShown(page, "Agendamento criado com sucesso!");
    const scheduled = row(page, "schedule-row", "Lembrete: sua");
    await scheduled.getByText("Pendente").waitFor();
    assert.match(await scheduled.innerText(), /\tLembrete: sua proposta ve…\t/);
    t.clock.advance(10 * 60_000);
    const outcomes = await sendDueSchedules(t.deps);
    assert.deepEqual(outcomes.map((o) => o.status), ["ENVIADA"]);
    await scheduled.getByText("Enviada").waitFor();
    await row(page, "schedule-row", "Retorno combinado").getByText("Pendente").waitFor();
    const delivered = await sentBySimulator(t, whatsapp.id, "sua proposta");
    assert.equal(delivered.toJid, "5511988887777@s.whatsapp.net");
    // Sent: it opens read-only, without the save button.
    await scheduled.getByRole("button", { name: "Editar" }).click();
    await dialog.getByText("Este agendamento já foi enviado.").waitFor();
    assert.equal(await dialog.getByTestId("schedule-submit").count(), 0);

    assert.deepEqual(pageErrors, []);
  }));
