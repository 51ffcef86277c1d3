type QrOptions = { errorCorrectionLevel?: "L" | "M" | "Q" | "H"; margin?: number; width?: number };

/**
 * A QR code as a PNG data URL (a connection's pairing QR, a Pix checkout). The `qrcode` package
 * loads with the first one, not at start (issue 33: most processes never draw one).
 */
export async function qrDataUrl(text: string, options?: QrOptions): Promise<string> {
  // Typed here: @types/qrcode pulls in @types/node 14, whose declarations break `node:` imports.
  const { default: QRCode } = (await import("qrcode")) as unknown as {
    default: { toDataURL(text: string, options?: QrOptions): Promise<string> };
  };
  return await QRCode.toDataURL(text, options);
}
