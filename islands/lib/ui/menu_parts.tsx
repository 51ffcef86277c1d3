import type { ReactNode } from "react";
import * as DropdownMenu from "radix-ui/dropdown-menu";
import { icon } from "./icon.tsx";

const Check = icon("check");

/** The radix side of Menu.tsx, loaded on the first menu opened (see deferred.tsx). */
export function MenuRoot(
  { trigger, children, align = "end", label, open, onOpenChange }: {
    trigger: ReactNode;
    children: ReactNode;
    align?: "start" | "center" | "end";
    label?: string;
    open: boolean;
    onOpenChange: (open: boolean) => void;
  },
) {
  return (
    <DropdownMenu.Root modal={false} open={open} onOpenChange={onOpenChange}>
      <DropdownMenu.Trigger asChild>{trigger}</DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content
          className="menu-content"
          align={align}
          sideOffset={6}
          aria-label={label}
        >
          {children}
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}

export function MenuItem(
  { children, onSelect, disabled, icon }: {
    children: ReactNode;
    onSelect?: () => void;
    disabled?: boolean;
    icon?: ReactNode;
  },
) {
  return (
    <DropdownMenu.Item className="menu-item" onSelect={onSelect} disabled={disabled}>
      {icon}
      {children}
    </DropdownMenu.Item>
  );
}

export function MenuLabel({ children }: { children: ReactNode }) {
  return <DropdownMenu.Label className="menu-label">{children}</DropdownMenu.Label>;
}

export function MenuSeparator() {
  return <DropdownMenu.Separator className="menu-separator" />;
}

/** One choice of a group (language, status filter...). */
export function MenuRadioGroup(
  { value, onValueChange, children }: {
    value: string;
    onValueChange: (value: string) => void;
    children: ReactNode;
  },
) {
  return (
    <DropdownMenu.RadioGroup value={value} onValueChange={onValueChange}>
      {children}
    </DropdownMenu.RadioGroup>
  );
}

export function MenuRadioItem({ value, children }: { value: string; children: ReactNode }) {
  return (
    <DropdownMenu.RadioItem className="menu-item" value={value}>
      {children}
      <DropdownMenu.ItemIndicator className="menu-check">
        <Check size={16} aria-hidden="true" />
      </DropdownMenu.ItemIndicator>
    </DropdownMenu.RadioItem>
  );
}
