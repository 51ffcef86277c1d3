import type { ReactNode } from "react";
import * as RTabs from "radix-ui/tabs";

export type TabSpec = { value: string; label: ReactNode; content: ReactNode };

/**
 * Tabs (radix Tabs: arrow keys, aria) with the app's look:
 *   <Tabs value={tab} onValueChange={setTab} tabs={[{ value: "open", label, content }]} />
 */
export function Tabs(
  { tabs, value, defaultValue, onValueChange, label }: {
    tabs: TabSpec[];
    value?: string;
    defaultValue?: string;
    onValueChange?: (value: string) => void;
    label?: string;
  },
) {
  return (
    <RTabs.Root
      value={value}
      defaultValue={defaultValue ?? tabs[0]?.value}
      onValueChange={onValueChange}
    >
      <RTabs.List className="tabs-list" aria-label={label}>
        {tabs.map((tab) => (
          <RTabs.Trigger key={tab.value} value={tab.value} className="tabs-trigger">
            {tab.label}
          </RTabs.Trigger>
        ))}
      </RTabs.List>
      {tabs.map((tab) => (
        <RTabs.Content key={tab.value} value={tab.value} className="tabs-content">
          {tab.content}
        </RTabs.Content>
      ))}
    </RTabs.Root>
  );
}
