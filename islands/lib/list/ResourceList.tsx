import type { ReactNode, TdHTMLAttributes } from "react";
import { useTranslation } from "react-i18next";
import { Button, IconButton } from "../ui/Button.tsx";
import type { ResourceList } from "./hooks.ts";
import { icon } from "../ui/icon.tsx";

const Pencil = icon("pencil");
const Plus = icon("plus");
const Search = icon("search");
const Trash2 = icon("trash-2");

/**
 * The frame of every list page (ResourceList.css): a search box above a scrolling card that
 * holds the table, with the loading and empty states. The rows are the page's own; their actions
 * are buttons (IconButton), so Tab reaches them and Enter or Space runs them.
 */
export function ListSearch<T>(
  { list, placeholder, testId }: { list: ResourceList<T>; placeholder: string; testId: string },
) {
  const { t } = useTranslation();
  return (
    <div className="people-toolbar">
      <label className="people-search">
        <Search size={16} aria-hidden="true" />
        <input
          type="search"
          className="input"
          placeholder={placeholder}
          aria-label={t("common.search")}
          value={list.typed}
          onChange={(e) => list.type(e.target.value)}
          data-testid={testId}
        />
      </label>
    </div>
  );
}

/**
 * A cell of a `wide` table: on a phone, where the table's rows become cards, its column's name
 * shows beside the value (the header row is then hidden).
 */
export function LabelledCell(
  { label, className, children, ...rest }: TdHTMLAttributes<HTMLTableCellElement> & {
    label: string;
  },
) {
  return (
    <td className={className} {...rest}>
      <span className="cell-label" aria-hidden="true">{label}</span>
      {children}
    </td>
  );
}

/**
 * The table of a list page: `head` is the header row's cells, `children` the body rows.
 *   <ResourceTable list={list} testId="tags-list" empty={t("tags.empty")}
 *     head={<><th>{t("tags.name")}</th><th className="col-actions" /></>}>
 *     {list.items.map((tag) => <tr key={tag.id}>...</tr>)}
 *   </ResourceTable>
 */
export function ResourceTable<T>(
  { list, testId, head, empty, hint, wide, children }: {
    list: ResourceList<T>;
    testId: string;
    head: ReactNode;
    empty: string;
    /**
     * Too many columns to share a phone's width (issue 50 item 8): there each row becomes a card,
     * a line per cell named by its column (LabelledCell), rather than words broken one letter a
     * line or a table to scroll sideways.
     */
    wide?: boolean;
    /** What to do about it, under the empty text. */
    hint?: string;
    children: ReactNode;
  },
) {
  const { t } = useTranslation();
  return (
    <div
      className="card people-scroll"
      ref={list.scrollRef}
      // It scrolls (the next page comes at its bottom; wide rows sideways on a phone): a keyboard
      // reaches it too (WCAG 2.1.1).
      tabIndex={0}
      data-testid={testId}
      aria-busy={list.loading}
    >
      <table className={wide ? "people-table people-table-wide" : "people-table"}>
        <thead>
          <tr>{head}</tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
      {list.loading
        ? <div className="people-loading" role="status">{t("common.loading")}</div>
        : null}
      {!list.loading && list.items.length === 0
        ? (
          <div className="empty-state" data-testid={`${testId}-empty`}>
            <span>{empty}</span>
            {hint ? <span className="empty-hint">{hint}</span> : null}
          </div>
        )
        : null}
    </div>
  );
}

/**
 * The header's add button (AppShell `actions`). The header lives outside the list's tree, so it
 * dispatches a window event that the list answers with `useWindowEvent(event, dialogs.add)`.
 */
export function AddButton({ event, label }: { event: string; label: string }) {
  return (
    <Button variant="primary" onClick={() => dispatchEvent(new Event(event))}>
      <Plus size={16} aria-hidden="true" />
      <span className="btn-label">{label}</span>
    </Button>
  );
}

/**
 * A row's actions cell: the page's own buttons (`children`) first, then edit and delete when the
 * user may (pass the handler only then). Buttons: reachable with Tab, named for screen readers.
 */
export function RowActions(
  { onEdit, onDelete, children }: {
    onEdit?: () => void;
    onDelete?: () => void;
    children?: ReactNode;
  },
) {
  const { t } = useTranslation();
  return (
    <td className="col-actions">
      {children}
      {onEdit
        ? (
          <IconButton label={t("common.edit")} onClick={onEdit}>
            <Pencil size={18} aria-hidden="true" />
          </IconButton>
        )
        : null}
      {onDelete
        ? (
          <IconButton label={t("common.delete")} onClick={onDelete}>
            <Trash2 size={18} aria-hidden="true" />
          </IconButton>
        )
        : null}
    </td>
  );
}
