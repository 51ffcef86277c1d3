/**
 * Carries dialog_styles.css into the page's stylesheet (scripts/build_islands.ts attaches a
 * module's same-named CSS). The dialogs themselves load on demand, and esbuild leaves the CSS of
 * lazily loaded chunks out of the entry's stylesheet.
 */
export const DIALOG_STYLES = true;
