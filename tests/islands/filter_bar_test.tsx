import assert from "node:assert/strict";
import { renderToString } from "react-dom/server";
import { IslandRoot } from "../../islands/lib/IslandRoot.tsx";
import { createI18n } from "../../islands/lib/i18n.ts";
import { ALL, FilterBar } from "../../islands/lib/filters/FilterBar.tsx";
import {
  chosenParams,
  localDay,
  monthToDate,
  periodInstants,
} from "../../islands/lib/filters/filter_values.ts";
import pt from "../../locales/pt.json" with { type: "json" };

/**
 * The filter bar /reports and /audit share (islands/lib/filters/): what it renders and the
 * query its values make. The pages' browser tests (tests/e2e/reports_test.ts, accounts_test.ts)
 * drive it through the period; the audit period's instants and the "all" choices are read here.
 */
const i18n = createI18n({ lng: "pt", resources: { pt } });

Deno.test("filter bar - the period first, then the selects in order, each on its 'all' label", () => {
  const filters = { from: "2026-11-01", to: "", a: ALL, b: "2" };
  const html = renderToString(
    <IslandRoot i18n={i18n} page={{ path: "/" }}>
      <FilterBar
        testId="x"
        state={{ filters, set: () => () => {} }}
        period={[["from", "De"], ["to", "Até"]]}
        choices={[
          false,
          { key: "a", label: "Fila", all: "Todas", options: [{ value: "1", label: "Vendas" }] },
          { key: "b", label: "Quem", all: "Todos", options: [{ value: "2", label: "Ana" }] },
        ]}
      >
        <button type="button">Exportar</button>
      </FilterBar>
    </IslandRoot>,
  );
  const order = ["De", 'data-testid="x-from"', "Até", 'data-testid="x-to"', 'aria-label="Fila"']
    .concat(["Todas", 'aria-label="Quem"', "Ana", "Exportar"])
    .map((text) => html.indexOf(text));
  assert.ok(order.every((at) => at >= 0), html);
  assert.deepEqual(order, [...order].sort((a, b) => a - b), "in that order");
  assert.match(html, /data-testid="x-from" value="2026-11-01"/);
  assert.doesNotMatch(html, /Vendas/, "a select shows only its chosen label before opening");
  assert.equal(html.match(/role="combobox"/g)?.length, 2, "the left-out choice is not drawn");
});

Deno.test("filter bar - a choice left on 'all' is not sent; the others in the given order", () => {
  const filters = { queueId: "3", userId: ALL, whatsappId: "7", tagId: ALL, dateFrom: "x" };
  assert.deepEqual(
    Object.entries(chosenParams(filters, ["tagId", "whatsappId", "userId", "queueId"])),
    [["whatsappId", "7"], ["queueId", "3"]],
  );
});

Deno.test("filter bar - a period of days is the first day's start to the next day's start", () => {
  assert.deepEqual(periodInstants("", ""), {});
  const both = periodInstants("2026-02-27", "2026-02-28");
  assert.equal(both.from, new Date(2026, 1, 27).toISOString());
  assert.equal(both.to, new Date(2026, 2, 1).toISOString(), "the whole last day, across months");
  assert.deepEqual(Object.keys(periodInstants("", "2026-12-31")), ["to"]);
  assert.equal(periodInstants("", "2026-12-31").to, new Date(2027, 0, 1).toISOString());
});

Deno.test("filter bar - local days and the month so far", () => {
  assert.equal(localDay(new Date(2026, 0, 5, 23, 59)), "2026-01-05");
  assert.deepEqual(monthToDate(new Date(2026, 10, 1, 0, 1)), {
    from: "2026-11-01",
    to: "2026-11-01",
  });
  assert.deepEqual(monthToDate(new Date(2026, 11, 31, 22)), {
    from: "2026-12-01",
    to: "2026-12-31",
  });
});
