import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import type { SessionUser } from "../../../contract/types.ts";
import { useSessionUser } from "../session.ts";
import { AppShell, type PageGuard } from "../shell/AppShell.tsx";
import { lazyPart } from "../ui/deferred.tsx";
import {
  type ResourceList,
  type ResourceListOptions,
  useRecordDialogs,
  useResourceList,
  useWindowEvent,
} from "./hooks.ts";
import type { Identified } from "./list_controller.ts";
import type { RecordDialogProps } from "./record_form.ts";
import { AddButton, ListSearch, ResourceTable } from "./ResourceList.tsx";

/** The delete confirmation: loaded when a row's delete is first chosen (issue 33). */
// (lazyPart fixes its props' type parameter; the cast gives the component back its generic.)
const DeleteDialog = lazyPart(() =>
  import("./DeleteDialog.tsx").then((m) => m.DeleteDialog)
) as unknown as typeof import("./DeleteDialog.tsx").DeleteDialog;

/** The event of the list page's add button (the header lives outside the list's tree). */
export const ADD_EVENT = "list:add";

/**
 * A header cell: its i18n key ("" for none), or [key, className]; `{ label, className }` names a
 * column for screen readers only (e.g. the pictures').
 */
export type HeadCell = string | readonly [string, string] | { label: string; className: string };

/**
 * What a list page is, as data: the list route and channel (useResourceList), its test ids
 * (`<testId>-search`, `<testId>-list`), the i18n keys of its texts, and its header cells.
 */
export type ListSpec<T> = ResourceListOptions<T> & {
  testId: string;
  /** The search box's placeholder; without it the page has no search. */
  search?: string;
  empty: string;
  /** What to do about an empty list (issue 24: not only "Nenhum X"), under the empty text. */
  emptyHint?: string;
  /** The header cells but the last: the row's actions, headed `actions` (an i18n key) or blank. */
  head: readonly HeadCell[];
  actions?: string;
  /** Scroll sideways on a phone rather than squeeze the columns (ResourceTable's `wide`). */
  wide?: boolean;
  /** The delete confirmation (DELETE `<path>/<id>`): its title, given the record's name and title. */
  remove?: {
    title: string;
    /** The text; default 'Deseja realmente excluir este/esse registro?'. */
    text?: string;
    /** The success toast. */
    done: string;
    /** The title's values; default the record's name and title. */
    values?: (record: T) => Record<string, string>;
  };
};

/**
 * A list page: the shell with its title, guard and header buttons, then the page's list. The add
 * button (`add`: its label's i18n key; `canAdd`: who sees it) reaches the list's useRecordPage.
 */
export function ListPage(
  { title, add, canAdd, actions, guard, children }: {
    title: string;
    add?: string;
    canAdd?: (user: SessionUser) => boolean;
    actions?: ReactNode;
    guard?: PageGuard;
    children: ReactNode;
  },
) {
  const { t } = useTranslation();
  return (
    <AppShell
      title={t(title)}
      guard={guard}
      actions={
        <>
          {actions}
          {add ? <AddAction label={t(add)} allow={canAdd} /> : null}
        </>
      }
    >
      {children}
    </AppShell>
  );
}

function AddAction({ label, allow }: { label: string; allow?: (user: SessionUser) => boolean }) {
  // The header renders before the session is read (on the server too): then no button.
  const user = useSessionUser();
  if (allow && (!user || !allow(user))) return null;
  return <AddButton event={ADD_EVENT} label={label} />;
}

export type RecordPage<T extends Identified> = {
  spec: ListSpec<T>;
  list: ResourceList<T>;
  dialogs: ReturnType<typeof useRecordDialogs<T>>;
  /** The props of the page's record dialog. */
  form: RecordDialogProps<T>;
  /** A row's edit and delete buttons (RowActions), each only where allowed. */
  actions: (record: T, allowed?: { edit: boolean; remove: boolean }) => {
    onEdit?: () => void;
    onDelete?: () => void;
  };
};

/**
 * A list page's state: the live list, which record its dialogs are open for, the header's add
 * (`onAdd`: instead of opening the empty form), and the props of its record dialog.
 */
export function useRecordPage<T extends Identified>(
  spec: ListSpec<T>,
  onAdd?: () => void,
): RecordPage<T> {
  const list = useResourceList<T>(spec);
  const dialogs = useRecordDialogs<T>();
  useWindowEvent(ADD_EVENT, onAdd ?? dialogs.add);
  const form: RecordDialogProps<T> = {
    open: dialogs.editing !== null,
    onOpenChange: (open) => !open && dialogs.closeEdit(),
    id: dialogs.editing?.id ?? null,
    onSaved: list.upsert,
  };
  const actions = (record: T, allowed = { edit: true, remove: true }) => ({
    onEdit: allowed.edit ? () => dialogs.edit(record.id) : undefined,
    onDelete: allowed.remove ? () => dialogs.askDelete(record) : undefined,
  });
  return { spec, list, dialogs, form, actions };
}

/**
 * The body of a list page: the search, the table (`children`: the rows), the record's dialog and
 * the delete confirmation. `toolbar` goes beside the search (e.g. an add button of a tab).
 */
export function RecordList<T extends Identified>(
  { page, dialog, heading, toolbar, className = "people-page", children }: {
    page: RecordPage<T>;
    dialog?: ReactNode;
    /** Above the search (e.g. the list's own name). */
    heading?: ReactNode;
    toolbar?: ReactNode;
    className?: string;
    children: ReactNode;
  },
) {
  const { t } = useTranslation();
  const { spec, list, dialogs } = page;
  const search = spec.search
    ? <ListSearch list={list} placeholder={t(spec.search)} testId={`${spec.testId}-search`} />
    : null;
  const remove = spec.remove;
  const deleting = dialogs.deleting as (T & { name?: string; title?: string }) | null;
  const values: Record<string, string> = deleting
    ? remove?.values?.(deleting) ?? { name: deleting.name ?? "", title: deleting.title ?? "" }
    : {};
  return (
    <div className={className}>
      {heading}
      {toolbar ? <div className="list-toolbar">{search}{toolbar}</div> : search}
      <ResourceTable
        list={list}
        testId={`${spec.testId}-list`}
        empty={t(spec.empty)}
        hint={spec.emptyHint ? t(spec.emptyHint) : undefined}
        wide={spec.wide}
        head={[...spec.head, [spec.actions ?? "", "col-actions"] as const].map((cell, i) => {
          if (typeof cell === "object" && "label" in cell) {
            return <th key={i} className={cell.className} aria-label={t(cell.label)} />;
          }
          const [key, className] = typeof cell === "string" ? [cell, undefined] : cell;
          return <th key={i} className={className}>{key ? t(key) : null}</th>;
        })}
      >
        {children}
      </ResourceTable>
      {dialog}
      {remove && dialogs.deleting
        ? (
          <DeleteDialog
            list={list}
            target={dialogs.deleting}
            onClose={dialogs.closeDelete}
            path={spec.path}
            title={t(remove.title, values)}
            description={remove.text ? t(remove.text) : undefined}
            successKey={remove.done}
          />
        )
        : null}
    </div>
  );
}
