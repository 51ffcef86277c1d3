/**
 * The one function we use of the `qrcode` package. Its own type package (@types/qrcode) pulls
 * in @types/node 14, whose old declarations break `node:` imports across the whole type check.
 */
declare const QRCode: {
  toDataURL(text: string, options?: { margin?: number; width?: number }): Promise<string>;
};
export default QRCode;
