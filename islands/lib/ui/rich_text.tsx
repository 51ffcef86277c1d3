import { Fragment, type ReactNode } from "react";

/**
 * Renders a translated string whose `<b>...</b>` parts are bold, e.g. "Olá <b>{{name}}</b>".
 * (react-i18next's <Trans> does this too but costs an HTML parser in every page's bundle.)
 * Interpolated values are plain text: a name containing "<b>" stays text.
 */
export function richText(text: string): ReactNode {
  const parts = text.split(/(<b>.*?<\/b>)/g);
  return parts.map((part, i) =>
    part.startsWith("<b>") && part.endsWith("</b>")
      ? <strong key={i}>{part.slice(3, -4)}</strong>
      : <Fragment key={i}>{part}</Fragment>
  );
}
