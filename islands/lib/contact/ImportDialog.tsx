import { type FormEvent, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { api } from "../api.ts";
import { Button } from "../ui/Button.tsx";
import { Modal } from "../ui/Modal.tsx";
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
  const [busy, setBusy] = useState(false);
  const [report, setReport] = useState<ImportReport | null>(null);

  useEffect(() => {
    if (!open) return;
    setFile(null);
    setReport(null);
  }, [open]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!file) return;
    setBusy(true);
    try {
      const form = new FormData();
      form.set("file", file);
      setReport(await api.post<ImportReport>(path, form));
      onImported();
    } catch {
      // the api client showed the error
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal
      open={open}
      onOpenChange={onOpenChange}
      width={600}
      title={t("contacts.importTitle")}
      description={t("contacts.importHint")}
      footer={report
        ? <Button variant="primary" onClick={() => onOpenChange(false)}>{t("common.close")}</Button>
        : (
          <>
            <Button variant="ghost" onClick={() => onOpenChange(false)}>
              {t("common.cancel")}
            </Button>
            <Button
              variant="primary"
              type="submit"
              form="import-form"
              loading={busy}
              disabled={!file}
            >
              {t("contacts.importAction")}
            </Button>
          </>
        )}
    >
      {report
        ? (
          <div className="import-report" data-testid="import-report">
            <ul className="import-totals">
              <li>
                <strong>{report.total}</strong> {t("contacts.report.total")}
              </li>
              <li data-testid="import-created">
                <strong>{report.created}</strong> {t("contacts.report.created")}
              </li>
              <li>
                <strong>{report.updated}</strong> {t("contacts.report.updated")}
              </li>
              <li>
                <strong>{report.unchanged}</strong> {t("contacts.report.unchanged")}
              </li>
              <li data-testid="import-skipped">
                <strong>{report.skipped.length}</strong> {t("contacts.report.skipped")}
              </li>
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
        )
        : (
          <form id="import-form" onSubmit={submit}>
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
          </form>
        )}
    </Modal>
  );
}
