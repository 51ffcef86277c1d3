import {
  type ButtonHTMLAttributes,
  createContext,
  type KeyboardEvent,
  type ReactNode,
  useContext,
  useId,
  useState,
} from "react";

/**
 * WAI-ARIA tabs written out (what radix Tabs renders: role tab/tablist/tabpanel, aria-selected,
 * data-state "active"/"inactive", one tab in the Tab order, arrow keys, Home and End move the focus
 * and a focused tab is chosen). Tabs are on the first paint of /tickets, /settings and /chats:
 * radix's tabs, roving focus and collection code were 8 KiB gzipped of those pages (issue 33).
 */
type TabsState = { value: string; select: (value: string) => void; base: string };

const TabsContext = createContext<TabsState>({ value: "", select: () => {}, base: "" });

const tabId = (base: string, value: string) => `${base}-tab-${value}`;
const panelId = (base: string, value: string) => `${base}-panel-${value}`;

/** The tabs' state for the `TabList`, `Tab` and `TabPanel` inside it (a plain div, like radix's). */
export function TabsRoot(
  { value, onValueChange, children }: {
    value: string;
    onValueChange: (value: string) => void;
    children: ReactNode;
  },
) {
  const base = useId();
  // Like radix: choosing the tab already chosen is no change.
  const select = (next: string) => {
    if (next !== value) onValueChange(next);
  };
  return (
    <TabsContext.Provider value={{ value, select, base }}>
      <div data-orientation="horizontal">{children}</div>
    </TabsContext.Provider>
  );
}

const MOVES = ["ArrowLeft", "ArrowRight", "Home", "End"];

function moveFocus(event: KeyboardEvent<HTMLDivElement>) {
  if (!MOVES.includes(event.key)) return;
  const tabs = [
    ...event.currentTarget.querySelectorAll<HTMLButtonElement>('[role="tab"]:not([disabled])'),
  ];
  const at = tabs.indexOf(event.target as HTMLButtonElement);
  if (at < 0) return;
  event.preventDefault();
  const next = event.key === "Home"
    ? 0
    : event.key === "End"
    ? tabs.length - 1
    : (at + (event.key === "ArrowRight" ? 1 : -1) + tabs.length) % tabs.length;
  tabs[next].focus();
}

export function TabList(
  { label, className, children }: { label?: string; className?: string; children: ReactNode },
) {
  return (
    <div
      role="tablist"
      aria-orientation="horizontal"
      aria-label={label}
      className={className}
      data-orientation="horizontal"
      onKeyDown={moveFocus}
    >
      {children}
    </div>
  );
}

export function Tab(
  { value, children, ...rest }:
    & { value: string; children: ReactNode }
    & Omit<ButtonHTMLAttributes<HTMLButtonElement>, "value" | "children">,
) {
  const tabs = useContext(TabsContext);
  const active = tabs.value === value;
  return (
    <button
      type="button"
      role="tab"
      id={tabId(tabs.base, value)}
      aria-selected={active}
      aria-controls={panelId(tabs.base, value)}
      data-state={active ? "active" : "inactive"}
      data-orientation="horizontal"
      tabIndex={active ? 0 : -1}
      {...rest}
      onClick={() => tabs.select(value)}
      onFocus={() => {
        if (!active) tabs.select(value);
      }}
    >
      {children}
    </button>
  );
}

/** The chosen tab's content; the others are not mounted. */
export function TabPanel(
  { value, className, children }: { value: string; className?: string; children: ReactNode },
) {
  const tabs = useContext(TabsContext);
  if (tabs.value !== value) return null;
  return (
    <div
      role="tabpanel"
      id={panelId(tabs.base, value)}
      aria-labelledby={tabId(tabs.base, value)}
      data-state="active"
      data-orientation="horizontal"
      tabIndex={0}
      className={className}
    >
      {children}
    </div>
  );
}

export type TabSpec = { value: string; label: ReactNode; content: ReactNode };

/**
 * Tabs with the app's look:
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
  const [own, setOwn] = useState(defaultValue ?? tabs[0]?.value ?? "");
  const current = value ?? own;
  const select = (next: string) => {
    setOwn(next);
    onValueChange?.(next);
  };
  return (
    <TabsRoot value={current} onValueChange={select}>
      <TabList className="tabs-list" label={label}>
        {tabs.map((tab) => (
          <Tab key={tab.value} value={tab.value} className="tabs-trigger">
            {tab.label}
          </Tab>
        ))}
      </TabList>
      {tabs.map((tab) => (
        <TabPanel key={tab.value} value={tab.value} className="tabs-content">
          {tab.content}
        </TabPanel>
      ))}
    </TabsRoot>
  );
}
