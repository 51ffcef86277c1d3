import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import type { Identified } from "../lib/list/list_controller.ts";
import { RecordList, type RecordPage } from "../lib/list/RecordPage.tsx";
import { Button } from "../lib/ui/Button.tsx";
import { icon } from "../lib/ui/icon.tsx";

const Plus = icon("plus");

/**
 * The frame of the Empresas, Planos and Ajuda tabs: the list kit's page with its add button beside
 * the search (`<testId>-add`: these tabs have no page header of their own).
 */
export function PlatformTab<T extends Identified>(
  { page, add, dialog, children }: {
    page: RecordPage<T>;
    /** The add button's i18n key. */
    add: string;
    dialog: ReactNode;
    children: ReactNode;
  },
) {
  const { t } = useTranslation();
  const button = (
    <Button variant="primary" onClick={page.dialogs.add} data-testid={`${page.spec.testId}-add`}>
      <Plus size={16} aria-hidden="true" />
      <span className="btn-label">{t(add)}</span>
    </Button>
  );
  return (
    <RecordList
      page={page}
      className="people-page platform-table-wrap"
      toolbar={button}
      dialog={dialog}
    >
      {children}
    </RecordList>
  );
}

/** A yes/no cell of the tables. */
export function YesNo({ value, yes, no }: { value: boolean; yes: string; no: string }) {
  return <span className={value ? "platform-yes" : "platform-no"}>{value ? yes : no}</span>;
}

/** A labelled on/off switch over a native checkbox (keyboard and forms for free). */
export function Check(
  { label, checked, onChange, name }: {
    label: string;
    checked: boolean;
    onChange: (checked: boolean) => void;
    name: string;
  },
) {
  return (
    <label className="platform-check">
      <input
        type="checkbox"
        role="switch"
        name={name}
        checked={checked}
        onChange={(e) => onChange(e.target.checked)}
      />
      {label}
    </label>
  );
}
