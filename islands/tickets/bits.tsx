import { type ReactNode, useState } from "react";
import { hueOf, initials } from "./format.ts";

/** A contact's picture, or their initials on a colour of their own. */
export function Avatar(
  { name, src, size = 44 }: { name: string; src?: string | null; size?: number },
) {
  const [broken, setBroken] = useState(false);
  const style = { width: size, height: size, fontSize: Math.round(size * 0.38) };
  if (src && !broken) {
    return (
      <img
        className="tk-avatar"
        style={style}
        src={src}
        alt=""
        loading="lazy"
        referrerPolicy="no-referrer"
        onError={() => setBroken(true)}
      />
    );
  }
  const hue = hueOf(name);
  return (
    <span
      className="tk-avatar tk-avatar-initials"
      style={{ ...style, ["--hue" as string]: String(hue) }}
      aria-hidden="true"
    >
      {initials(name)}
    </span>
  );
}

/** A labelled switch: the platform's checkbox with the switch role (keyboard: Space). */
export function Switch(
  { checked, onChange, label, testId }: {
    checked: boolean;
    onChange: (value: boolean) => void;
    label: string;
    testId?: string;
  },
) {
  return (
    <label className="tk-switch-label">
      <input
        type="checkbox"
        role="switch"
        className="tk-switch"
        checked={checked}
        onChange={(e) => onChange(e.target.checked)}
        data-state={checked ? "checked" : "unchecked"}
        data-testid={testId}
      />
      <span>{label}</span>
    </label>
  );
}

/** A small coloured label (queue, tag, connection, user). */
export function Chip(
  { color, children, title }: { color?: string | null; children: ReactNode; title?: string },
) {
  return (
    <span
      className="tk-chip"
      title={title}
      style={color ? { ["--chip" as string]: color } : undefined}
      data-colored={color ? "" : undefined}
    >
      {children}
    </span>
  );
}
