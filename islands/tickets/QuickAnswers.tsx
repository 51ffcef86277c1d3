import { useTranslation } from "react-i18next";
import { cutLabel } from "./format.ts";
import type { QuickMessage } from "../../contract/ticket_types.ts";
import { icon } from "../lib/ui/icon.tsx";

const Zap = icon("zap");

/** The quick answers whose shortcode contains what follows the '/' (seeds/000 section 5). */
export function matchQuickAnswers(all: QuickMessage[], query: string | null): QuickMessage[] {
  if (query === null) return [];
  return all.filter((q) => q.shortcode.toLowerCase().includes(query)).slice(0, 50);
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
  if (items.length === 0) return null;
  return (
    <ul
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
