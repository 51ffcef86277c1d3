import assert from "node:assert/strict";
import { createCompany, login, withApp } from "../helpers/app.ts";
import { insertFileList } from "../../server/file_lists/repository.ts";

/**
 * The by-name paged read the file lists, queue integrations, webhooks and contact list items share
 * (server/paging_repository.ts), through GET /api/files: by name then id across pages, the count
 * of every row the search keeps, the search's % and _ taken literally, the company's rows only.
 */
Deno.test("paging by name - pages follow name then id; the count and the search span them", () =>
  withApp(async (t) => {
    const a = await createCompany(t, "Alpha");
    const b = await createCompany(t, "Beta");
    const now = t.clock.now().toISOString();
    const names = Array.from({ length: 23 }, (_, i) => `lista ${String(24 - i).padStart(2, "0")}`);
    names.push("lista 05", "lista 05", "100%_off");
    const ids: Record<number, string> = {};
    for (const name of names) {
      const id = await insertFileList(t.deps.db, a.id, {
        userId: a.admin.id,
        name,
        message: "",
        now,
      });
      ids[id] = name;
    }
    await insertFileList(t.deps.db, b.id, {
      userId: b.admin.id,
      name: "lista 01",
      message: "",
      now,
    });
    const { token } = await login(t, a.admin.email, a.admin.password);
    type Page = { files: { id: number; name: string }[]; count: number; hasMore: boolean };
    const read = async (query: string): Promise<Page> => {
      const res = await t.request("GET", `/api/files?${query}`, { token });
      assert.equal(res.status, 200, await res.clone().text());
      return await res.json();
    };

    const first = await read("pageNumber=1");
    const second = await read("pageNumber=2");
    assert.deepEqual([first.files.length, first.count, first.hasMore], [20, 26, true]);
    assert.deepEqual([second.files.length, second.count, second.hasMore], [6, 26, false]);
    const seen = [...first.files, ...second.files];
    const expected = Object.entries(ids).map(([id, name]) => ({ id: Number(id), name }))
      .sort((x, y) => x.name < y.name ? -1 : x.name > y.name ? 1 : x.id - y.id);
    assert.deepEqual(seen.map((f) => [f.id, f.name]), expected.map((f) => [f.id, f.name]));

    const fives = await read("searchParam=%20lista%2005%20");
    assert.deepEqual([fives.files.map((f) => f.name), fives.count], [[
      "lista 05",
      "lista 05",
      "lista 05",
    ], 3]);
    const literal = await read(`searchParam=${encodeURIComponent("%_")}`);
    assert.deepEqual(literal.files.map((f) => f.name), ["100%_off"]);
  }));
