import { useEffect, useRef } from "react";
import { useTranslation } from "react-i18next";
import { cutLabel } from "./format.ts";
import type { QuickMessage } from "../../contract/ticket_types.ts";
import { icon } from "../lib/ui/icon.tsx";

const Zap = icon("zap");

/**
 * The quick answers whose shortcode contains what follows the '/' (seeds/000 section 5), every
 * one of them: "/" alone is the whole menu (issue 50 item 10; a cap hid the answers past it).
 */
export function matchQuickAnswers(all: QuickMessage[], query: string | null): QuickMessage[] {
  if (query === null) return [];
  return all.filter((q) => q.shortcode.toLowerCase().includes(query));
}

/**
 * The suggestions above the input: "shortcode - message" labels cut at 35 characters
 * (seeds/000 section 9); a click (or Enter on the highlighted one) puts the message in the input.
 */
export function QuickAnswers(
  { items, active, onPick, onHover }: {
    items: QuickMessage[];
    active: number;
    onPick: (item: QuickMessage) => void;
    onHover: (index: number) => void;
  },
) {
  const { t } = useTranslation();
  const list = useRef<HTMLUListElement>(null);
  // The list scrolls: the answer the arrow keys chose is kept in its view.
  useEffect(() => {
    list.current?.children[active]?.scrollIntoView({ block: "nearest" });
  }, [active, items.length]);
  if (items.length === 0) return null;
  return (
    <ul
      ref={list}
      className="qa"
      role="listbox"
      aria-label={t("tickets.input.quickAnswers")}
      data-testid="quick-answers"
    >
      {items.map((item, index) => (
        <li
          key={item.id}
          role="option"
          aria-selected={index === active}
          className="qa-item"
          onMouseDown={(e) => {
            // Keep the focus in the input.
            e.preventDefault();
            onPick(item);
          }}
          onMouseEnter={() => onHover(index)}
        >
          <Zap size={14} aria-hidden="true" />
          <span>{cutLabel(`${item.shortcode} - ${item.message}`)}</span>
        </li>
      ))}
    </ul>
  );
}
