import assert from "node:assert/strict";
import { createUser, type TestApp, twoCompanies } from "../helpers/app.ts";
import { type SocketEvent, TestSocket, withServer } from "../helpers/server.ts";
import type { ChatMessageView, ChatView } from "../../contract/team_types.ts";

const named = (name: string) => (e: SocketEvent) => e.event === name;

/**
 * Events reach a socket in the order they were published: once a socket hears a company-wide
 * tag event published after the chat's, anything of the chat meant for it has arrived too.
 */
async function barrier(t: TestApp, token: string, sockets: TestSocket[], companyId: number) {
  const name = `marker-${crypto.randomUUID().slice(0, 8)}`;
  const res = await t.request("POST", "/api/tags", { token, body: { name } });
  assert.equal(res.status, 201);
  for (const socket of sockets) {
    await socket.next((e) =>
      e.event === `company-${companyId}-tag` &&
      (e.data as { tag?: { name?: string } }).tag?.name === name
    );
  }
}

Deno.test("live chats - only participants hear chat-user, chat-<id> and chat; never a colleague outside it, never company B", () =>
  withServer(async (t, wsUrl) => {
    const { a, b } = await twoCompanies(t);
    const nina = await createUser(t, a.id, { name: "Nina", email: "nina@alpha.test" });
    const owner = await TestSocket.connect(wsUrl, a.admin.token);
    const member = await TestSocket.connect(wsUrl, a.user.token);
    const outsider = await TestSocket.connect(wsUrl, nina.token);
    const foreign = await TestSocket.connect(wsUrl, b.admin.token);
    const c = `company-${a.id}`;

    const created = await t.request("POST", "/api/chats", {
      token: a.admin.token,
      body: { title: "Plantão", users: [a.user.id] },
    });
    const chat = await created.json() as ChatView;
    const heard = await member.next(named(`${c}-chat-user`));
    assert.deepEqual(heard.data, { action: "create", record: chat });
    await owner.next(named(`${c}-chat-user`));

    const posted = await t.request("POST", `/api/chats/${chat.id}/messages`, {
      token: a.admin.token,
      body: { message: "Alguém cobre a fila?" },
    });
    const message = await posted.json() as ChatMessageView;
    const live = await member.next(named(`${c}-chat-${chat.id}`));
    const data = live.data as { action: string; newMessage: ChatMessageView; chat: ChatView };
    assert.equal(data.action, "new-message");
    assert.deepEqual(data.newMessage, message);
    assert.equal(data.chat.users.find((u) => u.userId === a.user.id)?.unreads, 1);
    const listEvent = await member.next(named(`${c}-chat`));
    assert.equal((listEvent.data as { action: string }).action, "new-message");
    await owner.next(named(`${c}-chat-${chat.id}`));

    const read = await t.request("POST", `/api/chats/${chat.id}/read`, { token: a.user.token });
    assert.equal(read.status, 200);
    // The reader's own sockets hear their counter reset; nobody else needs to.
    const isUpdate = (e: SocketEvent) =>
      e.event === `${c}-chat-${chat.id}` && (e.data as { action: string }).action === "update";
    const update = await member.next(isUpdate);
    const updated = (update.data as { chat: ChatView }).chat;
    assert.equal(updated.users.find((u) => u.userId === a.user.id)?.unreads, 0);
    await member.next((e) =>
      e.event === `${c}-chat` && (e.data as { action: string }).action === "update"
    );

    // A colleague outside the chat, and another company, heard none of it.
    await barrier(t, a.admin.token, [outsider, owner, member], a.id);
    await barrier(t, b.admin.token, [foreign], b.id);
    const chatty = (s: TestSocket) => s.events.filter((e) => /-chat/.test(e.event));
    assert.equal(owner.events.filter(isUpdate).length, 0);
    assert.deepEqual(chatty(outsider), []);
    assert.deepEqual(chatty(foreign), []);

    // The member leaves the chat (owner's edit): they hear `chat` delete; Nina joins and hears
    // chat-user update; then the delete reaches the participants of that moment only.
    await t.request("PUT", `/api/chats/${chat.id}`, {
      token: a.admin.token,
      body: { title: "Plantão", users: [nina.id] },
    });
    const left = await member.next((e) =>
      e.event === `${c}-chat` && (e.data as { action: string }).action === "delete"
    );
    assert.deepEqual(left.data, { action: "delete", id: chat.id });
    const joined = await outsider.next(named(`${c}-chat-user`));
    assert.equal((joined.data as { action: string }).action, "update");
    const memberBefore = chatty(member).length;
    await t.request("POST", `/api/chats/${chat.id}/messages`, {
      token: a.admin.token,
      body: { message: "Obrigado, Nina" },
    });
    await outsider.next(named(`${c}-chat-${chat.id}`));
    await t.request("DELETE", `/api/chats/${chat.id}`, { token: a.admin.token });
    const deleted = await outsider.next((e) =>
      e.event === `${c}-chat` && (e.data as { action: string }).action === "delete"
    );
    assert.deepEqual(deleted.data, { action: "delete", id: chat.id });
    await barrier(t, a.admin.token, [member], a.id);
    assert.equal(chatty(member).length, memberBefore, "the member left: no more events");
    await barrier(t, b.admin.token, [foreign], b.id);
    assert.deepEqual(chatty(foreign), []);

    for (const s of [owner, member, outsider, foreign]) await s.close();
  }));
