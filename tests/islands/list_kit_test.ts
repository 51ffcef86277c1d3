import assert from "node:assert/strict";
import {
  ListController,
  type ListPage,
  type ListQuery,
  SEARCH_DEBOUNCE_MS,
  type Timers,
} from "../../islands/lib/list/list_controller.ts";

/**
 * The list kit's behaviour (islands/lib/list/list_controller.ts), driven with a fake clock and a
 * fake list route whose answers the test releases in any order: debounce, paging, de-duplication,
 * live create/update/delete/reload and stale answers dropped.
 */
type Row = { id: number; name: string };

class FakeClock implements Timers {
  now = 0;
  #next = 1;
  #due = new Map<number, { at: number; fn: () => void }>();
  set = (fn: () => void, ms: number) => {
    const id = this.#next++;
    this.#due.set(id, { at: this.now + ms, fn });
    return id;
  };
  clear = (handle: unknown) => {
    this.#due.delete(handle as number);
  };
  advance(ms: number) {
    this.now += ms;
    for (const [id, timer] of [...this.#due]) {
      if (timer.at <= this.now) {
        this.#due.delete(id);
        timer.fn();
      }
    }
  }
}

/** A list route: every request waits until the test answers it. */
class FakeRoute {
  requests: { query: ListQuery; answer: (page: ListPage<Row>) => Promise<void> }[] = [];
  fetch = (query: ListQuery) =>
    new Promise<ListPage<Row>>((resolve) => {
      this.requests.push({
        query,
        answer: async (page) => {
          resolve(page);
          await flush();
        },
      });
    });
  last() {
    return this.requests.at(-1)!;
  }
}

async function flush() {
  for (let i = 0; i < 5; i++) await Promise.resolve();
}

const rows = (...ids: number[]) =>
  ids.map((id) => ({ id, name: `R${String(id).padStart(3, "0")}` }));
const names = (c: ListController<Row>) => c.state.items.map((r) => r.id);

function setup() {
  const clock = new FakeClock();
  const route = new FakeRoute();
  const list = new ListController<Row>({
    fetch: route.fetch,
    timers: clock,
    sort: (a, b) => a.name.localeCompare(b.name),
  });
  return { clock, route, list };
}

Deno.test("list kit - pages: page 1, then the next while hasMore, merged without duplicates", async () => {
  const { route, list } = setup();
  void list.reload();
  assert.equal(list.state.loading, true);
  assert.deepEqual(route.last().query, { pageNumber: 1 });
  await route.last().answer({ records: rows(1, 2, 3), hasMore: true });
  assert.deepEqual(names(list), [1, 2, 3]);
  assert.equal(list.state.loading, false);
  void list.loadMore();
  // A second loadMore while the first is in flight sends nothing.
  void list.loadMore();
  assert.equal(route.requests.length, 2);
  assert.deepEqual(route.last().query, { pageNumber: 2 });
  // Row 3 moved to page 2 meanwhile (a row was created before it): it is not listed twice.
  await route.last().answer({ records: rows(3, 4), hasMore: false });
  assert.deepEqual(names(list), [1, 2, 3, 4]);
  assert.equal(list.state.hasMore, false);
  void list.loadMore();
  assert.equal(route.requests.length, 2, "no page after the last");
});

Deno.test("list kit - search waits 500 ms after the last keystroke and needs 3 characters", async () => {
  const { clock, route, list } = setup();
  void list.reload();
  await route.last().answer({ records: rows(1, 2), hasMore: false });
  list.type("an");
  clock.advance(SEARCH_DEBOUNCE_MS);
  assert.equal(route.requests.length, 1, "two characters: no search");
  list.type("ana");
  clock.advance(SEARCH_DEBOUNCE_MS - 1);
  list.type("anab");
  clock.advance(SEARCH_DEBOUNCE_MS - 1);
  assert.equal(route.requests.length, 1, "still typing");
  clock.advance(1);
  assert.equal(route.requests.length, 2);
  assert.deepEqual(route.last().query, { pageNumber: 1, searchParam: "anab" });
  assert.equal(list.state.typed, "anab");
  // Back to a short text: the whole list again.
  await route.last().answer({ records: rows(2), hasMore: false });
  list.type("a");
  clock.advance(SEARCH_DEBOUNCE_MS);
  assert.deepEqual(route.last().query, { pageNumber: 1 });
});

Deno.test("list kit - a stale answer never overwrites a newer one", async () => {
  const { clock, route, list } = setup();
  list.type("ana");
  clock.advance(SEARCH_DEBOUNCE_MS);
  const slow = route.last();
  list.type("anabela");
  clock.advance(SEARCH_DEBOUNCE_MS);
  const fast = route.last();
  await fast.answer({ records: rows(7), hasMore: false });
  await slow.answer({ records: rows(1, 2, 3), hasMore: true });
  assert.deepEqual(names(list), [7]);
  assert.equal(list.state.hasMore, false);
  assert.equal(list.state.loading, false);
});

Deno.test("list kit - refresh lets the page 1 it overtakes show first, never over a newer answer", async () => {
  const { route, list } = setup();
  void list.reload();
  const first = route.last();
  void list.refresh();
  const again = route.last();
  await first.answer({ records: rows(1, 2), hasMore: false });
  assert.deepEqual(names(list), [1, 2], "the overtaken read shows at once");
  assert.equal(list.state.loading, true, "the newer read is still coming");
  await again.answer({ records: rows(1, 2, 3), hasMore: false });
  assert.deepEqual(names(list), [1, 2, 3]);
  assert.equal(list.state.loading, false);

  // The newer read answers first: the older one is dropped.
  void list.reload();
  const slow = route.last();
  void list.refresh();
  const fast = route.last();
  await fast.answer({ records: rows(4), hasMore: false });
  await slow.answer({ records: rows(5, 6), hasMore: false });
  assert.deepEqual(names(list), [4]);
  assert.equal(list.state.loading, false);

  // reload() (new filters) still drops what it overtakes.
  void list.reload();
  const old = route.last();
  void list.reload();
  await old.answer({ records: rows(9), hasMore: false });
  assert.deepEqual(names(list), [4]);
});

Deno.test("list kit - live create, update, delete and reload", async () => {
  const { clock, route, list } = setup();
  void list.reload();
  await route.last().answer({ records: rows(1, 3), hasMore: false });
  list.apply({ action: "create", record: { id: 2, name: "R002" } });
  assert.deepEqual(names(list), [1, 2, 3], "a created row takes its sorted place");
  list.apply({ action: "create", record: { id: 2, name: "R002" } });
  assert.deepEqual(names(list), [1, 2, 3], "an event heard twice lists it once");
  list.apply({ action: "update", record: { id: 3, name: "Renamed" } });
  assert.equal(list.state.items.find((r) => r.id === 3)?.name, "Renamed");
  list.apply({ action: "delete", id: 1 });
  assert.deepEqual(names(list), [2, 3]);
  list.apply({ action: "reload" });
  assert.deepEqual(route.last().query, { pageNumber: 1 });
  await route.last().answer({ records: rows(9), hasMore: false });
  assert.deepEqual(names(list), [9]);
  // Under a search term a created row is not added (the server decides what matches), but an
  // update of a listed row still applies.
  list.type("R00");
  clock.advance(SEARCH_DEBOUNCE_MS);
  await route.last().answer({ records: rows(9), hasMore: false });
  list.apply({ action: "create", record: { id: 10, name: "R010" } });
  list.apply({ action: "update", record: { id: 9, name: "R009!" } });
  assert.deepEqual(list.state.items, [{ id: 9, name: "R009!" }]);
});
