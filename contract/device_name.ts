/**
 * A short name of the device from its user agent ("Chrome · Windows"): the security dialog's
 * sessions, the push devices and the audit log (page and CSV) name a device the same way, never
 * by its whole user-agent string (issue 50 item 6). `t` gives the words for an unknown device.
 */
export function deviceName(agent: string | null, t: (key: string) => string): string {
  if (!agent) return t("shell.security.unknownDevice");
  const browser = /Edg\//.test(agent)
    ? "Edge"
    : /Firefox\//.test(agent)
    ? "Firefox"
    : /Chrome\//.test(agent)
    ? "Chrome"
    : /Safari\//.test(agent)
    ? "Safari"
    : agent.split(/[\s/]/)[0];
  const system = /Windows/.test(agent)
    ? "Windows"
    : /Android/.test(agent)
    ? "Android"
    : /iPhone|iPad/.test(agent)
    ? "iOS"
    : /Mac OS X/.test(agent)
    ? "macOS"
    : /Linux/.test(agent)
    ? "Linux"
    : "";
  return system ? `${browser} · ${system}` : browser;
}
