import { Fragment, type ReactNode } from "react";

/**
 * WhatsApp's text formatting as React nodes (never HTML): *bold*, _italic_, ~strike~,
 * ```monospace``` and clickable links. The sign-message prefix `*Name:*` shows in bold.
 * One formatter for every place a message's text shows: the ticket's bubbles, the kanban's cards.
 */
const TOKEN =
  /```([\s\S]+?)```|\*([^*\n]+)\*|_([^_\n]+)_|~([^~\n]+)~|(https?:\/\/[^\s<]+[^\s<.,;:!?)\]'"])/g;

export type WaTextOptions = {
  /** Links as links (a bubble) or as text (a preview inside a draggable card). */
  links?: boolean;
};

export function waText(text: string, options: WaTextOptions = {}, depth = 0): ReactNode[] {
  const nodes: ReactNode[] = [];
  let last = 0;
  let i = 0;
  for (const match of text.matchAll(TOKEN)) {
    const start = match.index ?? 0;
    if (start > last) nodes.push(<Fragment key={`t${i++}`}>{text.slice(last, start)}</Fragment>);
    const [whole, code, bold, italic, strike, link] = match;
    const inner = (value: string) => depth < 3 ? waText(value, options, depth + 1) : value;
    if (code !== undefined) nodes.push(<code key={`c${i++}`}>{code}</code>);
    else if (bold !== undefined) nodes.push(<strong key={`b${i++}`}>{inner(bold)}</strong>);
    else if (italic !== undefined) nodes.push(<em key={`i${i++}`}>{inner(italic)}</em>);
    else if (strike !== undefined) nodes.push(<s key={`s${i++}`}>{inner(strike)}</s>);
    else if (link !== undefined && options.links !== false) {
      nodes.push(
        <a key={`a${i++}`} href={link} target="_blank" rel="noopener noreferrer nofollow">
          {link}
        </a>,
      );
    } else nodes.push(<Fragment key={`w${i++}`}>{whole}</Fragment>);
    last = start + whole.length;
  }
  if (last < text.length) nodes.push(<Fragment key={`t${i++}`}>{text.slice(last)}</Fragment>);
  return nodes;
}

/** Plain text of a formatted message (list previews, quotes): the markers removed. */
export function plainText(text: string): string {
  return text.replace(/```([\s\S]+?)```/g, "$1").replace(/\*([^*\n]+)\*/g, "$1")
    .replace(/_([^_\n]+)_/g, "$1").replace(/~([^~\n]+)~/g, "$1");
}
