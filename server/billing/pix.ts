import { qrDataUrl } from "../qr_image.ts";
import { AppError } from "../errors.ts";

/**
 * A static Pix BR Code (the EMV payload any Brazilian bank app reads) made by `pix-utils`:
 * merchant account (GUI br.gov.bcb.pix + key), amount, merchant name and city, txid, CRC16.
 * pix-utils loads with the first charge, not at start (issue 33).
 */
export async function staticPixCode(input: {
  pixKey: string;
  merchantName: string;
  merchantCity: string;
  amount: number;
  /** Up to 25 letters and digits (BACEN's rule for txid). */
  txid: string;
  info?: string;
}): Promise<string> {
  const { createStaticPix, hasError } = await import("pix-utils");
  const pix = createStaticPix({
    merchantName: asciiUpper(input.merchantName).slice(0, 25),
    merchantCity: asciiUpper(input.merchantCity).slice(0, 15),
    pixKey: input.pixKey,
    transactionAmount: Math.round(input.amount * 100) / 100,
    txid: input.txid.replace(/[^A-Za-z0-9]/g, "").slice(0, 25),
    infoAdicional: input.info,
  });
  if (hasError(pix)) {
    throw new AppError(503, "ERR_BILLING_NOT_CONFIGURED", "Chave Pix inválida");
  }
  return pix.toBRCode();
}

/** Bank apps read names without accents best; the EMV fields are ASCII. */
function asciiUpper(text: string): string {
  return text.normalize("NFD").replace(/[\u0300-\u036f]/g, "").replace(/[^\x20-\x7e]/g, "")
    .toUpperCase();
}

/** The QR code of a payload as a PNG data URL (what the checkout's <img> shows). */
export async function qrImage(payload: string): Promise<string> {
  return await qrDataUrl(payload, { errorCorrectionLevel: "M", margin: 1, width: 256 });
}
