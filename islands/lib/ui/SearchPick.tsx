import { type ReactNode, useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { SEARCH_MIN_CHARS } from "../list/list_controller.ts";
import { useSearch } from "../use_lookup.ts";
import { icon } from "./icon.tsx";

const LoaderCircle = icon("loader-circle");
const Search = icon("search");
const X = icon("x");

/**
 * Picks one record by searching the API as one types (contacts of the new-ticket dialog, users
 * of the transfer dialog): the search starts at 3 characters after a 500 ms pause (seeds/000
 * sections 5 and 9). Keyboard: arrows move, Enter picks, Escape closes.
 */
export function SearchPick<T extends { id: number }>(
  { label, placeholder, path, listKey, value, onChange, describe, extra, testId, error }: {
    label: string;
    placeholder: string;
    path: string;
    listKey: string;
    value: T | null;
    onChange: (value: T | null) => void;
    describe: (item: T) => { title: string; sub?: string };
    /** A last entry after the results (e.g. 'add contact "…"'), given the typed text. */
    extra?: (text: string) => { label: ReactNode; onPick: () => void } | null;
    testId?: string;
    error?: string | null;
  },
) {
  const { t } = useTranslation();
  const id = useId();
  const [text, setText] = useState("");
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const search = useSearch<T>(path, listKey, text);
  const more = extra?.(text.trim()) ?? null;
  const count = search.items.length + (more ? 1 : 0);

  const choose = (index: number) => {
    if (index < search.items.length) {
      onChange(search.items[index]);
      setText("");
      setOpen(false);
    } else if (more) {
      more.onPick();
      setOpen(false);
    }
  };

  if (value) {
    const d = describe(value);
    return (
      <div className="field">
        <label>{label}</label>
        <div className="sp-chosen" data-testid={testId ? `${testId}-chosen` : undefined}>
          <span className="sp-chosen-text">
            <strong>{d.title}</strong>
            {d.sub ? <span>{d.sub}</span> : null}
          </span>
          <button
            type="button"
            className="icon-btn"
            aria-label={t("tickets.search.clear")}
            onClick={() => onChange(null)}
          >
            <X size={16} aria-hidden="true" />
          </button>
        </div>
      </div>
    );
  }

  return (
    <div className="field sp">
      <label htmlFor={id}>{label}</label>
      <div className="sp-box">
        <Search size={16} aria-hidden="true" />
        <input
          id={id}
          className="sp-input"
          value={text}
          placeholder={placeholder}
          autoComplete="off"
          role="combobox"
          aria-expanded={open && count > 0}
          aria-controls={`${id}-list`}
          aria-invalid={error ? true : undefined}
          data-testid={testId}
          onChange={(e) => {
            setText(e.target.value);
            setOpen(true);
            setActive(0);
          }}
          onFocus={() => setOpen(true)}
          onBlur={() => setTimeout(() => setOpen(false), 150)}
          onKeyDown={(e) => {
            if (e.key === "ArrowDown" && count) {
              e.preventDefault();
              setActive((i) => (i + 1) % count);
            } else if (e.key === "ArrowUp" && count) {
              e.preventDefault();
              setActive((i) => (i - 1 + count) % count);
            } else if (e.key === "Enter" && open && count) {
              e.preventDefault();
              choose(active);
            } else if (e.key === "Escape" && open) {
              e.stopPropagation();
              setOpen(false);
            }
          }}
        />
        {search.loading ? <LoaderCircle size={16} className="spin" aria-hidden="true" /> : null}
      </div>
      {error ? <span className="field-error">{error}</span> : null}
      {open && text.trim().length > 0 && text.trim().length < SEARCH_MIN_CHARS
        ? <span className="field-hint">{t("tickets.search.minChars")}</span>
        : null}
      {open && (count > 0 || (search.active && !search.loading))
        ? (
          <ul className="sp-list" id={`${id}-list`} role="listbox">
            {search.items.map((item, index) => {
              const d = describe(item);
              return (
                <li
                  key={item.id}
                  role="option"
                  aria-selected={index === active}
                  className="sp-item"
                  onMouseDown={(e) => {
                    e.preventDefault();
                    choose(index);
                  }}
                  onMouseEnter={() => setActive(index)}
                >
                  <strong>{d.title}</strong>
                  {d.sub ? <span>{d.sub}</span> : null}
                </li>
              );
            })}
            {search.active && !search.loading && search.items.length === 0
              ? <li className="sp-empty">{t("tickets.search.noResults")}</li>
              : null}
            {more
              ? (
                <li
                  role="option"
                  aria-selected={active === search.items.length}
                  className="sp-item sp-extra"
                  onMouseDown={(e) => {
                    e.preventDefault();
                    choose(search.items.length);
                  }}
                >
                  {more.label}
                </li>
              )
              : null}
          </ul>
        )
        : null}
    </div>
  );
}
