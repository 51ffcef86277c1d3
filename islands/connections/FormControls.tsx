import { useId } from "react";
import * as DropdownMenu from "radix-ui/dropdown-menu";
import * as RSwitch from "radix-ui/switch";
import { icon } from "../lib/ui/icon.tsx";

const Check = icon("check");
const ChevronDown = icon("chevron-down");

/** An on/off switch with its label on the right (radix Switch). */
export function SwitchField(
  { label, checked, onCheckedChange, name, hint }: {
    label: string;
    checked: boolean;
    onCheckedChange: (checked: boolean) => void;
    name: string;
    hint?: string;
  },
) {
  const id = useId();
  return (
    <div className="switch-field">
      <RSwitch.Root
        id={id}
        name={name}
        data-testid={`switch-${name}`}
        className="switch"
        checked={checked}
        onCheckedChange={onCheckedChange}
      >
        <RSwitch.Thumb className="switch-thumb" />
      </RSwitch.Root>
      <label htmlFor={id}>
        {label}
        {hint ? <span className="field-hint">{hint}</span> : null}
      </label>
    </div>
  );
}

export type MultiOption = { id: number; label: string; color?: string };

/**
 * Several choices from a list (the connection's queues): a dropdown of checkbox items whose
 * trigger shows the chosen ones as chips.
 */
export function MultiSelect(
  { label, options, value, onChange, empty, placeholder }: {
    label: string;
    options: MultiOption[];
    value: number[];
    onChange: (value: number[]) => void;
    /** Shown in the menu when there is nothing to choose. */
    empty: string;
    placeholder: string;
  },
) {
  const id = useId();
  const chosen = options.filter((o) => value.includes(o.id));
  const toggle = (optionId: number, on: boolean) =>
    onChange(on ? [...value, optionId] : value.filter((v) => v !== optionId));
  return (
    <div className="field" data-field="queues">
      <label id={id}>{label}</label>
      <DropdownMenu.Root modal={false}>
        <DropdownMenu.Trigger className="select-trigger multi-trigger" aria-labelledby={id}>
          <span className="chips">
            {chosen.length
              ? chosen.map((o) => (
                <span key={o.id} className="chip" style={chipStyle(o.color)}>
                  {o.label}
                </span>
              ))
              : <span className="placeholder">{placeholder}</span>}
          </span>
          <ChevronDown size={16} aria-hidden="true" />
        </DropdownMenu.Trigger>
        <DropdownMenu.Portal>
          <DropdownMenu.Content
            className="menu-content multi-content"
            align="start"
            sideOffset={6}
          >
            {options.length === 0 ? <div className="menu-label">{empty}</div> : null}
            {options.map((o) => (
              <DropdownMenu.CheckboxItem
                key={o.id}
                className="menu-item"
                checked={value.includes(o.id)}
                onCheckedChange={(on) => toggle(o.id, on === true)}
                // Keep the menu open: several queues are usually picked at once.
                onSelect={(event) => event.preventDefault()}
              >
                <span className="color-dot" style={{ background: o.color ?? "var(--grey)" }} />
                {o.label}
                <DropdownMenu.ItemIndicator className="menu-check">
                  <Check size={16} aria-hidden="true" />
                </DropdownMenu.ItemIndicator>
              </DropdownMenu.CheckboxItem>
            ))}
          </DropdownMenu.Content>
        </DropdownMenu.Portal>
      </DropdownMenu.Root>
    </div>
  );
}

function chipStyle(color?: string) {
  return color ? { borderColor: color, boxShadow: `inset 3px 0 0 ${color}` } : undefined;
}
