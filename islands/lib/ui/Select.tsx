import * as RSelect from "radix-ui/select";
import { Check, ChevronDown } from "lucide-react";

export type SelectOption = { value: string; label: string; disabled?: boolean };

/**
 * A select (radix Select) with the app's look:
 *   <Select label={t("x.queue")} value={v} onValueChange={setV} options={[{ value, label }]} />
 * Radix forbids an empty-string value: use a sentinel such as "none".
 */
export function Select(
  { value, onValueChange, options, label, placeholder, id, disabled }: {
    value: string | undefined;
    onValueChange: (value: string) => void;
    options: SelectOption[];
    /** Accessible name of the trigger when there is no visible <label for>. */
    label?: string;
    placeholder?: string;
    id?: string;
    disabled?: boolean;
  },
) {
  return (
    <RSelect.Root value={value} onValueChange={onValueChange} disabled={disabled}>
      <RSelect.Trigger className="select-trigger" aria-label={label} id={id}>
        <RSelect.Value placeholder={placeholder} />
        <RSelect.Icon>
          <ChevronDown size={16} aria-hidden="true" />
        </RSelect.Icon>
      </RSelect.Trigger>
      <RSelect.Portal>
        <RSelect.Content className="select-content" position="popper" sideOffset={6}>
          <RSelect.Viewport>
            {options.map((option) => (
              <RSelect.Item
                key={option.value}
                value={option.value}
                disabled={option.disabled}
                className="select-item"
              >
                <RSelect.ItemText>{option.label}</RSelect.ItemText>
                <RSelect.ItemIndicator className="menu-check">
                  <Check size={16} aria-hidden="true" />
                </RSelect.ItemIndicator>
              </RSelect.Item>
            ))}
          </RSelect.Viewport>
        </RSelect.Content>
      </RSelect.Portal>
    </RSelect.Root>
  );
}
