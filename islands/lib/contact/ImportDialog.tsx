import { useState } from "react";
import { useTranslation } from "react-i18next";
import { api } from "../api.ts";
import { FormDialog } from "../list/FormDialog.tsx";
import { useFormSubmit } from "../list/form_submit.ts";
import { Button } from "../ui/Button.tsx";
import type { ImportReport } from "../../../contract/people_types.ts";

const SHEETS =
  ".csv,.xlsx,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";

/**
 * Import a spreadsheet (POST `path`: contacts, or a contact list's items) and show the server's
 * per-row report: how many were created, updated or already there, and each skipped row with its
 * reason. The contacts import applies all valid rows or none, so the report is the whole truth.
 */
export function ImportDialog(
  { open, onOpenChange, onImported, path = "/contacts/import", accept = SHEETS }: {
    open: boolean;
    onOpenChange: (open: boolean) => void;
    onImported: () => void;
    path?: string;
    accept?: string;
  },
) {
  const { t } = useTranslation();
  const [file, setFile] = useState<File | null>(null);
  const [report, setReport] = useState<ImportReport | null>(null);
  const form = useFormSubmit({
    send: () => {
      const data = new FormData();
      data.set("file", file!);
      return api.post<ImportReport>(path, data, { quiet: true });
    },
    onDone: (answer) => {
      setReport(answer);
      onImported();
    },
  });
  const close = (
    <Button variant="primary" onClick={() => onOpenChange(false)}>{t("common.close")}</Button>
  );

  return (
    <FormDialog
      form={form}
      open={open}
      onOpenChange={onOpenChange}
      width={600}
      title={t("contacts.importTitle")}
      description={t("contacts.importHint")}
      id="import"
      formClassName=""
      submitLabel={t("contacts.importAction")}
      disabled={!file}
      footer={report ? close : undefined}
    >
      {report ? <Report report={report} /> : (
        <div className="field">
          <label htmlFor="import-file">{t("contacts.importFile")}</label>
          <input
            id="import-file"
            name="file"
            type="file"
            className="input"
            accept={accept}
            onChange={(e) => setFile(e.target.files?.[0] ?? null)}
          />
        </div>
      )}
    </FormDialog>
  );
}

/** The server's answer: the totals, then each skipped row with its reason. */
function Report({ report }: { report: ImportReport }) {
  const { t } = useTranslation();
  const totals = [
    ["total", report.total, undefined],
    ["created", report.created, "import-created"],
    ["updated", report.updated, undefined],
    ["unchanged", report.unchanged, undefined],
    ["skipped", report.skipped.length, "import-skipped"],
  ] as const;
  return (
    <div className="import-report" data-testid="import-report">
      <ul className="import-totals">
        {totals.map(([key, count, testId]) => (
          <li key={key} data-testid={testId}>
            <strong>{count}</strong> {t(`contacts.report.${key}`)}
          </li>
        ))}
      </ul>
      {report.skipped.length
        ? (
          <table className="people-table import-skipped">
            <thead>
              <tr>
                <th>{t("contacts.report.row")}</th>
                <th>{t("contacts.report.reason")}</th>
              </tr>
            </thead>
            <tbody>
              {report.skipped.map((s) => (
                <tr key={`${s.row}-${s.code}`}>
                  <td>{s.row}</td>
                  <td>
                    {t(`errors.${s.code}`, { defaultValue: "" })
                      ? `${t(`errors.${s.code}`)} (${s.reason})`
                      : s.reason}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )
        : null}
    </div>
  );
}
