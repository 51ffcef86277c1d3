import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import { createCompany, twoCompanies } from "../helpers/app.ts";
import { seenToasts, toastWith, withBrowser } from "../helpers/browser.ts";
import { PNG_BYTES } from "../helpers/images.ts";

Deno.test("internal chat - two users chat live; the second one's dot and bell light up and clear when the chat is opened", () =>
  withBrowser(async ({ t, page, url, loginAs, secondBrowser, pageErrors }) => {
    const c = await createCompany(t, "Acme");
    await loginAs(page, c.admin, { expectPath: "/" });
    await page.goto(`${url}/chats`);
    await page.getByTestId("chats-list").getByText("Nenhuma conversa.").waitFor();

    // The dialog's two alerts, then the chat.
    await page.getByRole("button", { name: "Nova conversa" }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByTestId("chat-submit").click();
    await toastWith(page, "Por favor, preencha o título da conversa.").waitFor();
    await dialog.locator("input[name=title]").fill("Plantão");
    await dialog.getByTestId("chat-submit").click();
    await toastWith(page, "Por favor, selecione pelo menos um usuário.").waitFor();
    await dialog.getByTestId("chat-users").getByText("Acme User").click();
    await dialog.getByTestId("chat-submit").click();
    await dialog.waitFor({ state: "detached" });
    await page.getByTestId("chat-pane").getByText("Plantão").waitFor();
    assert.match(new URL(page.url()).pathname, /^\/chats\/[0-9a-f-]{36}$/);

    // The second user is elsewhere: no dot, no unread chat.
    const other = await secondBrowser();
    await loginAs(other, c.user);
    await other.getByTestId("bell-chats").waitFor();
    assert.equal(await other.getByTestId("chat-dot").count(), 0);

    // A blank message cannot be sent; a real one goes out.
    const input = page.getByTestId("chat-input");
    await input.fill("   ");
    assert.equal(await page.getByRole("button", { name: "Enviar" }).isDisabled(), true);
    await input.fill("Alguém cobre a fila às 14h?");
    await input.press("Enter");
    await page.getByTestId("chat-message").filter({ hasText: "Alguém cobre a fila" }).waitFor();

    // Live on the other side: the menu's dot and the bell's count, the bell lists the chat.
    await other.getByTestId("chat-dot").waitFor();
    await other.getByTestId("bell-chats").locator(".badge").filter({ hasText: "1" }).waitFor();
    await other.getByTestId("bell-chats").click();
    await other.getByRole("link", { name: /Plantão/ }).click();
    await other.waitForURL(/\/chats\/[0-9a-f-]{36}$/);
    await other.getByTestId("chat-message").filter({ hasText: "Alguém cobre a fila" }).waitFor();
    // Opened: the counter is reset, the dot and the bell's count go away.
    await other.getByTestId("chat-dot").waitFor({ state: "detached" });
    await other.getByTestId("bell-chats").locator(".badge").waitFor({ state: "detached" });
    const counters = await t.deps.db.selectFrom("chat_users").select("unreads")
      .where("userId", "=", c.user.id).execute();
    assert.deepEqual(counters, [{ unreads: 0 }]);

    // The reply arrives live in the first user's open chat; only the owner may edit or delete.
    assert.equal(await other.getByRole("button", { name: "Excluir" }).count(), 0);
    await other.getByTestId("chat-input").fill("Eu cubro!");
    await other.getByTestId("chat-input").press("Enter");
    await page.getByTestId("chat-message").filter({ hasText: "Eu cubro!" }).waitFor();
    await page.getByRole("button", { name: "Excluir" }).waitFor();

    // A long history: the newest page first, the older one when scrolled near the top.
    // (Written to the database: an API login would end the browsers' sessions of these users.)
    const chat = await t.deps.db.selectFrom("chats").select("id").executeTakeFirstOrThrow();
    const stamp = t.clock.now().toISOString();
    await t.deps.db.insertInto("chat_messages").values(
      Array.from({ length: 25 }, (_, i) => ({
        companyId: c.id,
        chatId: chat.id,
        senderId: c.admin.id,
        message: `Histórico ${i + 1}`,
        createdAt: stamp,
        updatedAt: stamp,
      })),
    ).execute();
    await other.reload();
    await other.getByTestId("chat-message").filter({ hasText: "Histórico 25" }).waitFor();
    assert.equal(await other.getByTestId("chat-message").count(), 20);
    await other.getByTestId("chat-messages").evaluate((el) => el.scrollTop = 0);
    await other.getByTestId("chat-message").filter({ hasText: "Alguém cobre a fila" }).waitFor();
    assert.equal(await other.getByTestId("chat-message").count(), 27);

    // Under 600 px: tabs 'Chats' and 'Mensagens', the open chat's messages first.
    await other.setViewportSize({ width: 420, height: 800 });
    const messagesTab = other.getByRole("tab", { name: "Mensagens" });
    await messagesTab.waitFor();
    assert.equal(await messagesTab.getAttribute("aria-selected"), "true");
    await other.getByRole("tab", { name: "Chats" }).click();
    await other.getByTestId("chat-row").filter({ hasText: "Plantão" }).getByRole("button").click();
    assert.equal(await messagesTab.getAttribute("aria-selected"), "true");
    await other.getByTestId("chat-message").filter({ hasText: "Histórico 25" }).waitFor();
    assert.deepEqual(pageErrors, []);
  }));

Deno.test("announcements - a super user publishes one with an image; another company's user sees it in the bell; a non-super is sent away from the page", () =>
  withBrowser(async ({ t, page, url, loginAs, secondBrowser, pageErrors }) => {
    const { a, b } = await twoCompanies(t);
    await t.deps.db.updateTable("users").set({ super: 1 }).where("id", "=", a.admin.id).execute();

    // Company B's user is online before anything is published.
    const reader = await secondBrowser();
    await loginAs(reader, b.user);
    const bell = reader.getByTestId("bell-announcements");
    await bell.waitFor();
    assert.equal(await bell.locator(".badge").count(), 0);

    await loginAs(page, a.admin, { expectPath: "/" });
    await page.getByRole("link", { name: "Informativos" }).click();
    await page.waitForURL(`${url}/announcements`);
    await page.getByRole("button", { name: "Novo informativo" }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByTestId("announcement-submit").click();
    assert.equal(await dialog.getByText("Obrigatório").count(), 2);
    await dialog.locator("input[name=title]").fill("Manutenção programada");
    await dialog.locator("textarea[name=text]").fill("Sábado às 22h o sistema fica fora.");
    await dialog.getByRole("combobox", { name: "Prioridade" }).click();
    await page.getByRole("option", { name: "Alta" }).click();
    await dialog.getByTestId("announcement-file").setInputFiles({
      name: "aviso.png",
      mimeType: "image/png",
      buffer: Buffer.from(PNG_BYTES),
    });
    await dialog.getByTestId("announcement-submit").click();
    await toastWith(page, "Informativo salvo com sucesso!").waitFor();
    await page.getByTestId("announcement-row").filter({ hasText: "Manutenção programada" })
      .getByText("Alta").waitFor();
    const stored = await t.deps.db.selectFrom("announcements").selectAll()
      .executeTakeFirstOrThrow();
    assert.deepEqual([stored.priority, stored.status], [1, 1]);
    assert.match(stored.mediaName ?? "", /^[0-9a-f-]{36}\.png$/);

    // Live in the other company's bell: the count, the red priority, the picture; seen once opened.
    await bell.locator(".badge").filter({ hasText: "1" }).waitFor();
    await bell.click();
    const item = reader.getByTestId("announcement-item").filter({
      hasText: "Manutenção programada",
    });
    await item.waitFor();
    assert.equal(await item.getAttribute("data-priority"), "1");
    assert.match(await item.getAttribute("class") ?? "", /prio-high/);
    await item.getByRole("img", { name: "Manutenção programada" }).waitFor();
    await bell.locator(".badge").waitFor({ state: "detached" });

    // A non-super user on /announcements: the message, then / after 1 second.
    await reader.goto(`${url}/announcements`);
    await reader.waitForURL((u) => u.pathname !== "/announcements");
    assert.ok(
      (await seenToasts(reader)).includes(
        "Esta empresa não possui permissão para acessar essa página! Estamos lhe redirecionando.",
      ),
    );
    assert.equal(await page.getByTestId("announcement-row").count(), 1);
    assert.deepEqual(pageErrors, []);
  }));
