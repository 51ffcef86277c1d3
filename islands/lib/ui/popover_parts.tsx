import type { ReactNode } from "react";
import * as RadixPopover from "radix-ui/popover";

/** The radix side of Popover.tsx, loaded on the first popover opened (see deferred.tsx). */
export function PopoverRoot(
  { trigger, children, className, align, sideOffset, open, onOpenChange }: {
    trigger: ReactNode;
    children: ReactNode;
    className: string;
    align: "start" | "center" | "end";
    sideOffset: number;
    open: boolean;
    onOpenChange: (open: boolean) => void;
  },
) {
  return (
    <RadixPopover.Root open={open} onOpenChange={onOpenChange}>
      <RadixPopover.Trigger asChild>{trigger}</RadixPopover.Trigger>
      <RadixPopover.Portal>
        <RadixPopover.Content className={className} align={align} sideOffset={sideOffset}>
          {children}
        </RadixPopover.Content>
      </RadixPopover.Portal>
    </RadixPopover.Root>
  );
}
