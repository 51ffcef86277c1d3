/**
 * Carries form_styles.css (the search picker, the schedule dialog, file chips) into the stylesheet
 * of each page that imports it: the dialogs using them load on demand, and esbuild leaves the CSS
 * of lazily loaded chunks out of the entry's stylesheet.
 */
export const FORM_STYLES = true;
