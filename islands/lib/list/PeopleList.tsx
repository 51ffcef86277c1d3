import { forwardRef, type ReactNode } from "react";
import { Search } from "lucide-react";

/**
 * The frame of the contacts and users lists: a search box above a scrolling card holding the
 * table (PeopleList.css styles both pages' tables, dialogs and toolbar).
 */
export function SearchBox(
  { value, onChange, placeholder, label, testId }: {
    value: string;
    onChange: (value: string) => void;
    placeholder: string;
    label: string;
    testId: string;
  },
) {
  return (
    <div className="people-toolbar">
      <label className="people-search">
        <Search size={16} aria-hidden="true" />
        <input
          type="search"
          className="input"
          placeholder={placeholder}
          aria-label={label}
          value={value}
          onChange={(e) => onChange(e.target.value)}
          data-testid={testId}
        />
      </label>
    </div>
  );
}

export const PeopleList = forwardRef<HTMLDivElement, { children: ReactNode; testId: string }>(
  ({ children, testId }, ref) => (
    <div className="card people-scroll" ref={ref} data-testid={testId}>{children}</div>
  ),
);
