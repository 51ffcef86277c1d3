import type { ReactNode } from "react";
import { Popover } from "../lib/ui/Popover.tsx";
import { icon } from "../lib/ui/icon.tsx";

const ChevronDown = icon("chevron-down");

export type MultiOption = { value: string; label: string; color?: string | null };

/**
 * A multiple choice in a popover (queues, tags, users of the ticket filters): a trigger that
 * says how many are chosen, and a list of checkboxes.
 */
export function MultiSelect(
  { options, selected, onChange, label, icon, summary, testId, empty, filtered }: {
    options: MultiOption[];
    selected: string[];
    onChange: (values: string[]) => void;
    label: string;
    icon?: ReactNode;
    /** The trigger's text (e.g. "3 filas"). */
    summary: string;
    testId?: string;
    /** Shown when there is nothing to choose. */
    empty?: string;
    /** Whether the choice narrows the list (the trigger is highlighted); default: any chosen. */
    filtered?: boolean;
  },
) {
  const toggle = (value: string, on: boolean) => {
    const next = on ? [...selected, value] : selected.filter((v) => v !== value);
    // Keep the options' order, so that the query (and its cache key) stays the same.
    onChange(options.map((o) => o.value).filter((v) => next.includes(v)));
  };
  return (
    <Popover
      className="popover-content ms-content"
      align="start"
      sideOffset={6}
      trigger={
        <button
          type="button"
          className="ms-trigger"
          aria-label={label}
          data-testid={testId}
          data-active={(filtered ?? selected.length > 0) || undefined}
        >
          {icon}
          <span className="ms-summary">{summary}</span>
          <ChevronDown size={14} aria-hidden="true" />
        </button>
      }
    >
      <div className="popover-title">{label}</div>
      <div className="ms-list" role="group" aria-label={label}>
        {options.length === 0 ? <div className="popover-empty">{empty}</div> : null}
        {options.map((option) => {
          const on = selected.includes(option.value);
          return (
            <label key={option.value} className="ms-item">
              <input
                type="checkbox"
                className="tk-checkbox"
                checked={on}
                onChange={(e) => toggle(option.value, e.target.checked)}
                data-testid={testId ? `${testId}-${option.value}` : undefined}
              />
              {option.color
                ? (
                  <span
                    className="ms-dot"
                    style={{ background: option.color }}
                    aria-hidden="true"
                  />
                )
                : null}
              <span className="ms-label">{option.label}</span>
            </label>
          );
        })}
      </div>
    </Popover>
  );
}
