/** Announcement priority colours (seeds/002 section 9): 1 red, 2 orange, 3 grey (AppShell.css). */
export const PRIORITY_CLASS: Record<number, string> = {
  1: "prio-high",
  2: "prio-medium",
  3: "prio-low",
};
