import assert from "node:assert/strict";
import { withApp } from "../helpers/app.ts";
import { loadManifest } from "../../routes/pages/assets.ts";

const islandData = (html: string) => JSON.parse(html.match(/id="island-data">(.*?)<\/script>/)![1]);

Deno.test("pages /tags, /quick-messages, /schedules, /kanban - each with its island and title", () =>
  withApp(async (t) => {
    const manifest = loadManifest().islands;
    for (
      const [path, island, title] of [
        ["/tags", "TagsPage", "Tags"],
        ["/quick-messages", "QuickMessagesPage", "Respostas rápidas"],
        ["/schedules", "SchedulesPage", "Agendamentos"],
        ["/kanban", "KanbanPage", "Kanban"],
      ] as const
    ) {
      const res = await t.request("GET", path);
      assert.equal(res.status, 200, path);
      const html = await res.text();
      assert.ok(html.includes(`<script type="module" src="${manifest[island].js}">`), path);
      assert.match(html, new RegExp(`<title>${title} · Balcão</title>`), path);
    }
  }));

Deno.test("pages /schedules - ?contactId is handed to the page only as a positive integer", () =>
  withApp(async (t) => {
    for (
      const [query, expected] of [
        ["?contactId=7", 7],
        ["?contactId=abc", null],
        ["?contactId=-3", null],
        ["?contactId=1e3", null],
        ["", null],
      ] as const
    ) {
      const html = await (await t.request("GET", `/schedules${query}`)).text();
      assert.equal(islandData(html).props.contactId, expected, query);
    }
  }));

Deno.test("pages /todo - a common guess at the tasks page's address goes to /todolist", () =>
  withApp(async (t) => {
    const res = await t.request("GET", "/todo");
    assert.equal(res.status, 301);
    assert.equal(res.headers.get("location"), "/todolist");
    await res.body?.cancel();
  }));
