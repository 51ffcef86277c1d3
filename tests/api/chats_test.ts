import assert from "node:assert/strict";
import {
  createCompany,
  createUser,
  type TestApp,
  type TestCompany,
  type TestUser,
  twoCompanies,
  withApp,
} from "../helpers/app.ts";
import type { ChatView } from "../../contract/team_types.ts";
import { LIMITS } from "../../contract/validation.ts";

/** Company A's admin (the owner), A's user (a participant), A's Nina (not in the chat), and B. */
async function cast(t: TestApp) {
  const { a, b } = await twoCompanies(t);
  const outsider = await createUser(t, a.id, { name: "Nina", email: "nina@alpha.test" });
  return { a, b, owner: a.admin, member: a.user, outsider };
}

async function newChat(t: TestApp, owner: TestUser, users: number[], title = "Plantão") {
  const res = await t.request("POST", "/api/chats", { token: owner.token, body: { title, users } });
  assert.equal(res.status, 201, await res.clone().text());
  return await res.json() as ChatView;
}

async function errorOf(res: Response) {
  return { status: res.status, error: (await res.json()).error };
}

const unreadsOf = (chat: ChatView) =>
  Object.fromEntries(chat.users.map((u) => [u.user.name, u.unreads]));

Deno.test("chats - the owner creates, renames, changes participants and deletes; others cannot", () =>
  withApp(async (t) => {
    const { a, b, owner, member, outsider } = await cast(t);

    const noTitle = await t.request("POST", "/api/chats", {
      token: owner.token,
      body: { title: "  ", users: [member.id] },
    });
    assert.equal(noTitle.status, 400);
    assert.deepEqual((await noTitle.json()).fields, { title: ["Obrigatório"] });
    const noUsers = await t.request("POST", "/api/chats", {
      token: owner.token,
      body: { title: "Plantão", users: [] },
    });
    assert.equal(noUsers.status, 400);
    assert.deepEqual((await noUsers.json()).fields, { users: ["Selecione pelo menos um usuário"] });
    // A participant of another company: refused, nothing stored.
    const foreign = await t.request("POST", "/api/chats", {
      token: owner.token,
      body: { title: "Plantão", users: [member.id, b.user.id] },
    });
    assert.deepEqual(await errorOf(foreign), { status: 404, error: "ERR_NO_USER_FOUND" });
    const stored = await t.deps.db.selectFrom("chats").select("id").execute();
    assert.deepEqual(stored, []);

    // Whaticket's dialog sends users as objects; the owner always takes part.
    const chat = await (await t.request("POST", "/api/chats", {
      token: owner.token,
      body: { title: "Plantão", users: [{ id: member.id }] },
    })).json() as ChatView;
    assert.equal(chat.title, "Plantão");
    assert.equal(chat.ownerId, owner.id);
    assert.deepEqual(chat.users.map((u) => u.userId).sort(), [owner.id, member.id].sort());
    assert.match(chat.uuid, /^[0-9a-f-]{36}$/);

    const memberList = await (await t.request("GET", "/api/chats?pageNumber=1", {
      token: member.token,
    })).json();
    assert.deepEqual(memberList.records.map((c: ChatView) => c.id), [chat.id]);
    assert.equal(memberList.hasMore, false);
    const byUuid = await t.request("GET", `/api/chats/${chat.uuid}`, { token: member.token });
    assert.equal((await byUuid.json()).id, chat.id);
    // Hostile paths and parameters: a clear 400, never a 5xx.
    for (
      const path of [
        "/api/chats/not-a-uuid",
        "/api/chats/0",
        `/api/chats/${chat.id}/messages?pageNumber=abc`,
        "/api/chats?pageNumber=-1",
      ]
    ) {
      const res = await t.request("GET", path, { token: member.token });
      assert.deepEqual(await errorOf(res), { status: 400, error: "ERR_VALIDATION" }, path);
    }
    const search = await (await t.request("GET", "/api/chats?searchParam=zzz", {
      token: member.token,
    })).json();
    assert.deepEqual(search.records, []);

    // Not a participant (same company) and another company: the chat does not exist for them.
    for (const stranger of [outsider, b.admin]) {
      const list = await (await t.request("GET", "/api/chats", { token: stranger.token })).json();
      assert.deepEqual(list.records, []);
      for (
        const [method, path, body] of [
          ["GET", `/api/chats/${chat.id}`],
          ["GET", `/api/chats/${chat.uuid}`],
          ["PUT", `/api/chats/${chat.id}`, { title: "x", users: [stranger.id] }],
          ["DELETE", `/api/chats/${chat.id}`],
          ["GET", `/api/chats/${chat.id}/messages`],
          ["POST", `/api/chats/${chat.id}/messages`, { message: "oi" }],
          ["POST", `/api/chats/${chat.id}/read`, { userId: stranger.id }],
        ] as [string, string, unknown?][]
      ) {
        const res = await t.request(method, path, { token: stranger.token, body });
        assert.deepEqual(await errorOf(res), { status: 404, error: "ERR_NO_CHAT_FOUND" }, path);
      }
    }

    // A participant who is not the owner neither edits nor deletes.
    const put = await t.request("PUT", `/api/chats/${chat.id}`, {
      token: member.token,
      body: { title: "Meu", users: [member.id] },
    });
    assert.deepEqual(await errorOf(put), { status: 403, error: "ERR_NO_PERMISSION" });
    const del = await t.request("DELETE", `/api/chats/${chat.id}`, { token: member.token });
    assert.deepEqual(await errorOf(del), { status: 403, error: "ERR_NO_PERMISSION" });

    // The owner swaps the member for Nina and renames.
    const changed = await t.request("PUT", `/api/chats/${chat.id}`, {
      token: owner.token,
      body: { title: "Turno da noite", users: [outsider.id] },
    });
    assert.equal(changed.status, 200);
    const after = await changed.json() as ChatView;
    assert.equal(after.title, "Turno da noite");
    assert.deepEqual(after.users.map((u) => u.userId).sort(), [owner.id, outsider.id].sort());
    const gone = await t.request("GET", `/api/chats/${chat.id}`, { token: member.token });
    assert.equal(gone.status, 404);
    const foreignPut = await t.request("PUT", `/api/chats/${chat.id}`, {
      token: owner.token,
      body: { title: "x", users: [b.user.id] },
    });
    assert.deepEqual(await errorOf(foreignPut), { status: 404, error: "ERR_NO_USER_FOUND" });

    const deleted = await t.request("DELETE", `/api/chats/${chat.id}`, { token: owner.token });
    assert.equal(deleted.status, 204);
    const rows = await t.deps.db.selectFrom("chat_users").select("userId")
      .where("companyId", "=", a.id).execute();
    assert.deepEqual(rows, []);
  }));

Deno.test("chats - messages: pages, unread counters per participant, read resets, bad input", () =>
  withApp(async (t) => {
    const { owner, member, outsider } = await cast(t);
    const chat = await newChat(t, owner, [member.id, outsider.id]);

    const blank = await t.request("POST", `/api/chats/${chat.id}/messages`, {
      token: member.token,
      body: { message: "   \n " },
    });
    assert.deepEqual(await errorOf(blank), { status: 400, error: "ERR_EMPTY_MESSAGE" });
    const huge = await t.request("POST", `/api/chats/${chat.id}/messages`, {
      token: member.token,
      body: { message: "a".repeat(LIMITS.chatMessage.max + 1) },
    });
    assert.deepEqual(await errorOf(huge), { status: 400, error: "ERR_MESSAGE_TOO_LONG" });
    const missing = await t.request("POST", `/api/chats/${chat.id}/messages`, {
      token: member.token,
      body: {},
    });
    assert.deepEqual(await errorOf(missing), { status: 400, error: "ERR_VALIDATION" });
    const none = await t.deps.db.selectFrom("chat_messages").select("id").execute();
    assert.deepEqual(none, []);

    for (let i = 1; i <= 25; i++) {
      const res = await t.request("POST", `/api/chats/${chat.id}/messages`, {
        token: i % 5 === 0 ? member.token : owner.token,
        body: { message: ` mensagem ${i} ` },
      });
      assert.equal(res.status, 201);
      if (i === 25) {
        const sent = await res.json();
        assert.equal(sent.message, "mensagem 25");
        assert.deepEqual(sent.sender, { id: member.id, name: "Alpha User" });
      }
    }
    const listed = await (await t.request("GET", "/api/chats", { token: outsider.token })).json();
    const seen = listed.records[0] as ChatView;
    assert.equal(seen.lastMessage, "mensagem 25");
    // 20 messages by the owner and 5 by the member: each counts what the others sent.
    assert.deepEqual(unreadsOf(seen), { "Alpha Admin": 5, "Alpha User": 20, "Nina": 25 });

    const page1 = await (await t.request("GET", `/api/chats/${chat.id}/messages?pageNumber=1`, {
      token: outsider.token,
    })).json();
    assert.equal(page1.hasMore, true);
    assert.equal(page1.count, 25);
    assert.deepEqual(
      page1.records.map((m: { message: string }) => m.message),
      Array.from({ length: 20 }, (_, i) => `mensagem ${i + 6}`),
    );
    const page2 = await (await t.request("GET", `/api/chats/${chat.id}/messages?pageNumber=2`, {
      token: outsider.token,
    })).json();
    assert.equal(page2.hasMore, false);
    assert.deepEqual(
      page2.records.map((m: { message: string }) => m.message),
      ["mensagem 1", "mensagem 2", "mensagem 3", "mensagem 4", "mensagem 5"],
    );

    // Reading the messages does not reset the counter: the read call does, for the caller only.
    const read = await t.request("POST", `/api/chats/${chat.id}/read`, {
      token: outsider.token,
      body: { userId: member.id },
    });
    assert.equal(read.status, 200);
    assert.deepEqual(unreadsOf(await read.json()), {
      "Alpha Admin": 5,
      "Alpha User": 20,
      "Nina": 0,
    });
    const rows = await t.deps.db.selectFrom("chat_users").select(["userId", "unreads"])
      .where("chatId", "=", chat.id).orderBy("userId").execute();
    assert.deepEqual(rows, [
      { userId: owner.id, unreads: 5 },
      { userId: member.id, unreads: 20 },
      { userId: outsider.id, unreads: 0 },
    ]);
  }));

Deno.test("chats - a plan without useInternalChat is refused on every route", () =>
  withApp(async (t) => {
    const { a } = await twoCompanies(t);
    const chat = await newChat(t, a.admin, [a.user.id]);
    const off: TestCompany = await createCompany(t, "Gamma", { plan: { useInternalChat: 0 } });
    // The flag is the company's plan: switching it off closes a chat that already exists too.
    await t.deps.db.updateTable("plans").set({ useInternalChat: 0 }).where(
      "id",
      "=",
      (await t.deps.db.selectFrom("companies").select("planId").where("id", "=", a.id)
        .executeTakeFirstOrThrow()).planId!,
    ).execute();
    for (const token of [off.admin.token, a.admin.token]) {
      for (
        const [method, path, body] of [
          ["GET", "/api/chats"],
          ["POST", "/api/chats", { title: "x", users: [a.user.id] }],
          ["GET", `/api/chats/${chat.id}`],
          ["PUT", `/api/chats/${chat.id}`, { title: "x", users: [a.user.id] }],
          ["DELETE", `/api/chats/${chat.id}`],
          ["GET", `/api/chats/${chat.id}/messages`],
          ["POST", `/api/chats/${chat.id}/messages`, { message: "oi" }],
          ["POST", `/api/chats/${chat.id}/read`, {}],
        ] as [string, string, unknown?][]
      ) {
        const res = await t.request(method, path, { token, body });
        assert.deepEqual(
          await errorOf(res),
          { status: 403, error: "ERR_PLAN_FEATURE_DISABLED" },
          `${method} ${path}`,
        );
      }
    }
  }));
