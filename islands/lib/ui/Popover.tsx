import type { ReactNode } from "react";
import { deferredModule, DeferredTrigger, useDeferred } from "./deferred.tsx";

const parts = deferredModule(() => import("./popover_parts.tsx"));

/**
 * A popover (radix Popover, loaded on first use: deferred.tsx) anchored to its trigger:
 *   <Popover trigger={<IconButton label="...">...</IconButton>} className="popover-content">
 *     content
 *   </Popover>
 */
export function Popover(
  { trigger, children, className = "popover-content", align = "end", sideOffset = 8, onOpen }: {
    trigger: ReactNode;
    children: ReactNode;
    className?: string;
    align?: "start" | "center" | "end";
    sideOffset?: number;
    /** Each time it opens (a bell marks its items seen). */
    onOpen?: () => void;
  },
) {
  const popover = useDeferred(parts);
  const use = () => {
    onOpen?.();
    popover.use();
  };
  if (!popover.mod) return <DeferredTrigger trigger={trigger} popup="dialog" onUse={use} />;
  const { PopoverRoot } = popover.mod;
  return (
    <PopoverRoot
      trigger={trigger}
      className={className}
      align={align}
      sideOffset={sideOffset}
      open={popover.open}
      onOpenChange={(open) => {
        if (open) onOpen?.();
        popover.setOpen(open);
      }}
    >
      {children}
    </PopoverRoot>
  );
}
