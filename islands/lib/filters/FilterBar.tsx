import { type ReactNode, useState } from "react";
import { SelectField, type SelectOption } from "../ui/Select.tsx";
import { ALL, type FilterValues } from "./filter_values.ts";

export { ALL, type FilterValues } from "./filter_values.ts";

/** A page's filters and the setter of one of them: `set("queueId")(value)`. */
export type FilterState<F extends FilterValues> = {
  filters: F;
  set: (key: keyof F) => (value: string) => void;
};

export function useFilters<F extends FilterValues>(initial: F | (() => F)): FilterState<F> {
  const [filters, setFilters] = useState<F>(initial);
  const set = (key: keyof F) => (value: string) => setFilters((f) => ({ ...f, [key]: value }));
  return { filters, set };
}

/** A select of the bar: its filter, label, the "all" choice's label and the other choices. */
export type FilterChoice<F extends FilterValues> = {
  key: keyof F & string;
  label: string;
  all: string;
  options: SelectOption[];
};

/** Records as a select's options (the id as the value). */
export function namedOptions(items: { id: number; name: string }[]): SelectOption[] {
  return items.map((i) => ({ value: String(i.id), label: i.name }));
}

/**
 * The filter bar of /reports and /audit: the period (two date inputs, `<testId>-from` and
 * `<testId>-to`), then one select per choice, its name shown above it like the dates' (issue 50
 * item 5: four selects all reading "Todos" say nothing) (`false` leaves one out, e.g. a filter
 * only super users have), then `children` (an export button).
 */
export function FilterBar<F extends FilterValues>(
  { testId, state: { filters, set }, period, choices, children }: {
    testId: string;
    state: FilterState<F>;
    /** The first and the last day: each date's filter and label. */
    period: [[keyof F & string, string], [keyof F & string, string]];
    choices: (FilterChoice<F> | false)[];
    children?: ReactNode;
  },
) {
  const date = ([key, label]: [keyof F & string, string], id: string) => (
    <label>
      {label}
      <input
        className="input"
        type="date"
        value={filters[key]}
        onChange={(e) => set(key)(e.target.value)}
        data-testid={`${testId}-${id}`}
      />
    </label>
  );
  return (
    <div className="filter-bar" data-testid={testId}>
      {date(period[0], "from")}
      {date(period[1], "to")}
      {choices.map((choice) =>
        choice && (
          <SelectField
            key={choice.key}
            name={choice.key}
            label={choice.label}
            value={filters[choice.key]}
            onValueChange={set(choice.key)}
            options={[{ value: ALL, label: choice.all }, ...choice.options]}
          />
        )
      )}
      {children}
    </div>
  );
}
