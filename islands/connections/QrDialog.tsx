import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { api } from "../lib/api.ts";
import { Button } from "../lib/ui/Button.tsx";
import { Field } from "../lib/ui/Field.tsx";
import { useFormSubmit } from "../lib/list/form_submit.ts";
import { Modal } from "../lib/ui/Modal.tsx";
import { type Connection, normalStatus, qrDialogDone } from "./model.ts";
import { icon } from "../lib/ui/icon.tsx";

const KeyRound = icon("key-round");
const LoaderCircle = icon("loader-circle");
const QrCode = icon("qr-code");
const ScanLine = icon("scan-line");

/**
 * The QR dialog (seeds/000 section 4): the connection's QR image (a data URL kept current by the
 * page from whatsappSession events), closing itself once the QR is gone (scanned: CONNECTED).
 * A simulator connection offers 'Simulate scan' (POST /api/simulator/:id/scan) so that a demo
 * needs no phone; a real one offers linking with a phone number and a pairing code instead.
 */
export function QrDialog(
  { connection, pairingCode, onClose }: {
    /** The connection as the page knows it now (null: closed). */
    connection: Connection | null;
    pairingCode: string | null;
    onClose: () => void;
  },
) {
  const { t } = useTranslation();
  const [scanning, setScanning] = useState(false);
  const [pairing, setPairing] = useState(false);
  const [phone, setPhone] = useState("");
  const [code, setCode] = useState<string | null>(null);
  const open = connection !== null;
  const id = connection?.id;

  useEffect(() => {
    setScanning(false);
    setPairing(false);
    setPhone("");
    setCode(null);
  }, [id]);

  const shownCode = pairingCode ?? code;
  const done = connection ? qrDialogDone(connection, shownCode) : false;
  useEffect(() => {
    if (open && done) onClose();
  }, [open, done]);

  const pairingForm = useFormSubmit({
    send: () =>
      api.post<{ code: string }>(`/whatsappsession/${id}/pairing-code`, { phoneNumber: phone }, {
        quiet: true,
      }),
    onDone: (answer) => setCode(answer.code),
  });

  if (!connection) return <Modal open={false} onOpenChange={() => {}} title="" />;
  const status = normalStatus(connection.status);
  const simulator = connection.capabilities.simulated;

  const scan = async () => {
    setScanning(true);
    try {
      await api.post(`/simulator/${connection.id}/scan`);
      // The dialog closes when the CONNECTED event arrives.
    } catch {
      setScanning(false);
    }
  };

  const showCode = shownCode && status === "PAIRING";
  return (
    <Modal
      open={open}
      onOpenChange={(next) => !next && onClose()}
      title={t(showCode ? "connections.qr.pairingTitle" : "connections.qr.title", {
        name: connection.name,
      })}
      width={460}
      footer={
        <>
          {simulator && (connection.qrcode || status === "PAIRING")
            ? (
              <Button
                variant="primary"
                onClick={() => void scan()}
                loading={scanning}
                data-testid="simulate-scan"
              >
                <ScanLine size={18} aria-hidden="true" />
                {t("connections.qr.simulateScan")}
              </Button>
            )
            : null}
          <Button variant="ghost" onClick={onClose}>{t("common.close")}</Button>
        </>
      }
    >
      <div className="qr-dialog" data-testid="qr-dialog" data-status={status}>
        {showCode
          ? (
            <div className="pairing-code" data-testid="pairing-code">
              <KeyRound size={22} aria-hidden="true" />
              <p>{t("connections.qr.pairingCodeHelp")}</p>
              <code>{formatCode(shownCode)}</code>
            </div>
          )
          : connection.qrcode
          ? (
            <div className="qr-frame">
              <img
                src={connection.qrcode}
                alt={t("connections.qr.imageAlt")}
                width={264}
                height={264}
                data-testid="qr-image"
              />
            </div>
          )
          : (
            <div className="qr-frame qr-waiting" aria-busy="true">
              <LoaderCircle size={32} className="spin" aria-hidden="true" />
              <span>{t("connections.qr.waiting")}</span>
            </div>
          )}
        {showCode
          ? null
          : simulator
          ? <p className="qr-steps">{t("connections.qr.simulatorHelp")}</p>
          : (
            <ol className="qr-steps">
              <li>{t("connections.qr.step1")}</li>
              <li>{t("connections.qr.step2")}</li>
              <li>{t("connections.qr.step3")}</li>
            </ol>
          )}
        {!simulator && !showCode
          ? pairing
            ? (
              <form className="pairing-form" onSubmit={pairingForm.onSubmit} noValidate>
                <Field
                  label={t("connections.qr.phoneNumber")}
                  inputMode="tel"
                  placeholder="5513912344321"
                  {...pairingForm.bind("phoneNumber", phone, setPhone)}
                />
                <Button
                  type="submit"
                  variant="secondary"
                  loading={pairingForm.saving}
                  disabled={phone.replace(/\D/g, "").length < 8}
                >
                  {t("connections.qr.getCode")}
                </Button>
              </form>
            )
            : (
              <button type="button" className="link-btn" onClick={() => setPairing(true)}>
                <QrCode size={16} aria-hidden="true" />
                {t("connections.qr.usePhoneNumber")}
              </button>
            )
          : null}
      </div>
    </Modal>
  );
}

/** WhatsApp shows pairing codes as two groups of four: ABCD-EFGH. */
function formatCode(code: string): string {
  return code.length === 8 ? `${code.slice(0, 4)}-${code.slice(4)}` : code;
}
