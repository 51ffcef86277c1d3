/**
 * The 50 preset queue colours (seeds/001 sections 2 and 9). Shared by the queue dialog (islands)
 * and the server (tests check every preset passes the queue colour rule), so this module imports
 * nothing. Material Design hues in shades 500, 800 and 300: distinct, readable under white text.
 */
export const QUEUE_COLORS: readonly string[] = Object.freeze([
  // 500
  "#F44336",
  "#E91E63",
  "#9C27B0",
  "#673AB7",
  "#3F51B5",
  "#2196F3",
  "#03A9F4",
  "#00BCD4",
  "#009688",
  "#4CAF50",
  "#8BC34A",
  "#CDDC39",
  "#FFEB3B",
  "#FFC107",
  "#FF9800",
  "#FF5722",
  "#795548",
  "#9E9E9E",
  "#607D8B",
  // 800
  "#C62828",
  "#AD1457",
  "#6A1B9A",
  "#4527A0",
  "#283593",
  "#1565C0",
  "#0277BD",
  "#00838F",
  "#00695C",
  "#2E7D32",
  "#558B2F",
  "#9E9D24",
  "#F9A825",
  "#FF8F00",
  "#EF6C00",
  "#D84315",
  "#4E342E",
  "#424242",
  "#37474F",
  // 300
  "#E57373",
  "#F06292",
  "#BA68C8",
  "#9575CD",
  "#7986CB",
  "#64B5F6",
  "#4FC3F7",
  "#4DD0E1",
  "#4DB6AC",
  "#81C784",
  "#AED581",
  "#DCE775",
]);

/** A queue colour: `#` and 3, 4, 6 or 8 hex digits (seeds/001 section 5: 3 to 9 characters). */
export const HEX_COLOR_PATTERN = /^#([0-9a-fA-F]{3,4}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$/;
