import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { languageOf } from "../lib/i18n.ts";
import { Button } from "../lib/ui/Button.tsx";
import { formatBRL } from "./format.ts";
import type { CheckoutAnswer } from "../../contract/billing_types.ts";
import { icon } from "../lib/ui/icon.tsx";

const Copy = icon("copy");

/** seeds/001 section 9: the copy confirmation shows for 1 second. */
export const COPIED_MS = 1000;

/** After PAGAR (seeds/001 section 2): the total, the QR code, the copy button, the instructions. */
export function PixScreen({ pix }: { pix: CheckoutAnswer }) {
  const { t, i18n } = useTranslation();
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), COPIED_MS);
    return () => clearTimeout(timer);
  }, [copied]);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(pix.qrcode.qrcode);
    } catch {
      // No clipboard permission (plain http): the code stays selectable below.
    }
    setCopied(true);
  };
  return (
    <div className="pix-screen" data-testid="pix-screen">
      <strong className="pix-total">
        {t("billing.checkout.pixTotal", {
          value: formatBRL(Number(pix.valor.original), languageOf(i18n)),
        })}
      </strong>
      <img
        src={pix.qrcode.imagemQrcode}
        alt={t("billing.checkout.qrAlt")}
        width={220}
        height={220}
      />
      <label className="field">
        <span>{t("billing.checkout.code")}</span>
        <textarea className="input pix-code" readOnly rows={3} value={pix.qrcode.qrcode} />
      </label>
      <Button variant="primary" onClick={copy}>
        <Copy size={16} aria-hidden="true" />
        {copied ? t("billing.checkout.copied") : t("billing.checkout.copy")}
      </Button>
      <p>{t("billing.checkout.instructions")}</p>
    </div>
  );
}
