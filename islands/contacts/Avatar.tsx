/** A round picture, or the name's initials on a colour derived from the name. */
export function Avatar({ name, src, size = 36 }: { name: string; src?: string; size?: number }) {
  const initials = name.trim().split(/\s+/).slice(0, 2).map((w) => w[0]?.toUpperCase() ?? "")
    .join("") || "?";
  let hash = 0;
  for (const ch of name) hash = (hash * 31 + ch.charCodeAt(0)) >>> 0;
  const style = { width: size, height: size, fontSize: Math.round(size * 0.38) };
  if (src) {
    return <img className="people-avatar" src={src} alt="" style={style} loading="lazy" />;
  }
  return (
    <span
      className="people-avatar"
      aria-hidden="true"
      style={{ ...style, background: `hsl(${hash % 360} 55% 45%)` }}
    >
      {initials}
    </span>
  );
}
