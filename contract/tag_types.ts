/**
 * A tag as the API answers it (seeds/001 section 3 'Tag'): declared once here, imported by the
 * server's view (server/tags/repository.ts), the tags page and the kanban board.
 */
export type TagView = {
  id: number;
  name: string;
  color: string;
  kanban: boolean;
  companyId: number;
  ticketsCount?: number;
  createdAt: string;
  updatedAt: string;
};

/** Black or white text, whichever reads better on a #RGB / #RRGGBB background. */
export function textOn(color: string): string {
  let hex = color.replace("#", "");
  if (hex.length <= 4) hex = [...hex.slice(0, 3)].map((c) => c + c).join("");
  const [r, g, b] = [0, 2, 4].map((i) => parseInt(hex.slice(i, i + 2), 16) || 0);
  // Perceived brightness (ITU-R BT.601 weights), 0..255.
  return r * 0.299 + g * 0.587 + b * 0.114 > 160 ? "#1a1a1a" : "#ffffff";
}
