import type { ReactElement } from "react";
import { usePage } from "../page_context.ts";

/** What the pages pass to an icon (the props lucide-react's components took here). */
export type IconProps = {
  size?: number;
  /** The stroke's colour (default: the text's). */
  color?: string;
  className?: string;
  role?: string;
  "aria-hidden"?: boolean | "true" | "false";
  "aria-label"?: string;
};

export type IconComponent = (props: IconProps) => ReactElement;

/**
 * An icon of lucide's set, drawn from the build's sprite (scripts/icon_sprite.ts writes every icon
 * the code names with `icon(<name>)` into one hashed, cached SVG file): the page's JavaScript holds
 * only the icon's name, not its paths (issue 33: lucide-react's per-icon components were 17 KB of
 * /tickets' first load). The same attributes as lucide-react's `<svg>` (size, stroke, class
 * `lucide lucide-<name>`, aria-hidden unless labelled), so styles and the look do not change; the
 * sprite's URL comes with the page (PageInfo.icons), the same on the server and in hydration.
 */
export function icon(name: string): IconComponent {
  return function Icon({ size = 24, color = "currentColor", className, ...aria }: IconProps) {
    const sprite = usePage().icons ?? "";
    const labelled = "aria-hidden" in aria || "aria-label" in aria || "role" in aria;
    return (
      <svg
        xmlns="http://www.w3.org/2000/svg"
        width={size}
        height={size}
        viewBox="0 0 24 24"
        fill="none"
        stroke={color}
        strokeWidth={2}
        strokeLinecap="round"
        strokeLinejoin="round"
        className={`lucide lucide-${name}${className ? ` ${className}` : ""}`}
        aria-hidden={labelled ? undefined : "true"}
        {...aria}
      >
        <use href={`${sprite}#${name}`} />
      </svg>
    );
  };
}
