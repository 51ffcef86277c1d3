import type { ReactNode } from "react";
import Plus from "lucide-react/icons/plus";
import type { ResourceList } from "../lib/list/hooks.ts";
import { ListSearch } from "../lib/list/ResourceList.tsx";
import { Button } from "../lib/ui/Button.tsx";

/**
 * The frame of the Empresas, Planos and Ajuda tabs: the list kit's search with an add button
 * beside it (these tabs have no page header of their own), then the table.
 */
export function PlatformTab<T>(
  { list, search, addLabel, onAdd, testId, children }: {
    list: ResourceList<T>;
    search: string;
    addLabel: string;
    onAdd: () => void;
    testId: string;
    children: ReactNode;
  },
) {
  return (
    <div className="people-page platform-table-wrap" data-testid={testId}>
      <div className="platform-toolbar">
        <ListSearch list={list} placeholder={search} testId={`${testId}-search`} />
        <Button variant="primary" onClick={onAdd} data-testid={`${testId}-add`}>
          <Plus size={16} aria-hidden="true" />
          <span className="btn-label">{addLabel}</span>
        </Button>
      </div>
      {children}
    </div>
  );
}

/** A yes/no cell of the tables. */
export function YesNo({ value, yes, no }: { value: boolean; yes: string; no: string }) {
  return <span className={value ? "platform-yes" : "platform-no"}>{value ? yes : no}</span>;
}

/** A labelled on/off switch over a native checkbox (keyboard and forms for free). */
export function Check(
  { label, checked, onChange, name }: {
    label: string;
    checked: boolean;
    onChange: (checked: boolean) => void;
    name: string;
  },
) {
  return (
    <label className="platform-check">
      <input
        type="checkbox"
        role="switch"
        name={name}
        checked={checked}
        onChange={(e) => onChange(e.target.checked)}
      />
      {label}
    </label>
  );
}
