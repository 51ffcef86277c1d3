import { useTranslation } from "react-i18next";
import { icon } from "./icon.tsx";

const ArrowLeft = icon("arrow-left");

/**
 * What a page says when the record of its URL does not exist (or is another company's: the same
 * answer): one message and the way back to the list it belongs to. The one part every page that
 * opens a record by id shows (usePageRecord, lib/use_record.ts).
 */
export function RecordMissing({ back, backLabel }: { back: string; backLabel: string }) {
  const { t } = useTranslation();
  return (
    <div className="empty-state record-missing" role="alert" data-testid="record-missing">
      <p>{t("common.recordMissing")}</p>
      <a className="btn btn-primary" href={back}>
        <ArrowLeft size={18} aria-hidden="true" /> {t(backLabel)}
      </a>
    </div>
  );
}
