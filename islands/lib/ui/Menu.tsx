import type { ReactNode } from "react";
import { deferredModule, DeferredTrigger, useDeferred } from "./deferred.tsx";

const parts = deferredModule(() => import("./menu_parts.tsx"));

/**
 * A dropdown menu (radix DropdownMenu, loaded on first use) with the app's look:
 *   <Menu trigger={<IconButton label="...">...</IconButton>}>
 *     <MenuItem onSelect={...}>Profile</MenuItem>
 *   </Menu>
 */
export function Menu(
  { trigger, children, align = "end", label }: {
    trigger: ReactNode;
    children: ReactNode;
    align?: "start" | "center" | "end";
    label?: string;
  },
) {
  const menu = useDeferred(parts);
  if (!menu.mod) return <DeferredTrigger trigger={trigger} popup="menu" onUse={menu.use} />;
  const { MenuRoot } = menu.mod;
  return (
    <MenuRoot
      trigger={trigger}
      align={align}
      label={label}
      open={menu.open}
      onOpenChange={menu.setOpen}
    >
      {children}
    </MenuRoot>
  );
}

// The items render only inside an open menu, so their module is loaded by then.
type Parts = NonNullable<typeof parts.current>;
function loaded(): Parts {
  return parts.current!;
}

export function MenuItem(props: Parameters<Parts["MenuItem"]>[0]) {
  const { MenuItem } = loaded();
  return <MenuItem {...props} />;
}

export function MenuLabel(props: Parameters<Parts["MenuLabel"]>[0]) {
  const { MenuLabel } = loaded();
  return <MenuLabel {...props} />;
}

export function MenuSeparator() {
  const { MenuSeparator } = loaded();
  return <MenuSeparator />;
}

/** One choice of a group (language, status filter...). */
export function MenuRadioGroup(props: Parameters<Parts["MenuRadioGroup"]>[0]) {
  const { MenuRadioGroup } = loaded();
  return <MenuRadioGroup {...props} />;
}

export function MenuRadioItem(props: Parameters<Parts["MenuRadioItem"]>[0]) {
  const { MenuRadioItem } = loaded();
  return <MenuRadioItem {...props} />;
}
