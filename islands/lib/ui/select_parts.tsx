import * as RSelect from "radix-ui/select";

import type { SelectProps } from "./Select.tsx";
import { icon } from "./icon.tsx";

const Check = icon("check");
const ChevronDown = icon("chevron-down");

/** The radix side of Select.tsx, loaded on the first select opened (see deferred.tsx). */
export function SelectRoot(
  { value, onValueChange, options, label, placeholder, id, disabled, open, onOpenChange }:
    & SelectProps
    & { open: boolean; onOpenChange: (open: boolean) => void },
) {
  return (
    <RSelect.Root
      value={value}
      onValueChange={onValueChange}
      disabled={disabled}
      open={open}
      onOpenChange={onOpenChange}
    >
      <RSelect.Trigger className="select-trigger" aria-label={label} id={id}>
        <RSelect.Value placeholder={placeholder} />
        <RSelect.Icon>
          <ChevronDown size={16} aria-hidden="true" />
        </RSelect.Icon>
      </RSelect.Trigger>
      <RSelect.Portal>
        <RSelect.Content
          className="select-content"
          position="popper"
          sideOffset={6}
          collisionPadding={8}
        >
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
