/**
 * The signature an attendant's text carries (seeds/000 section 9, the sign-message option): the
 * user's name in bold on its own first line, `*Name:*\n`, then the text. An edit changes the text
 * only (issue 50): the signature stays as it was sent.
 */
const SIGNED = /^(\*[^*\n]+:\*\n)([\s\S]*)$/;

/** The body's signature line (with its newline; null when unsigned) and the text after it. */
export function splitSignature(body: string): { signature: string | null; text: string } {
  const found = SIGNED.exec(body);
  return found ? { signature: found[1], text: found[2] } : { signature: null, text: body };
}

/** The edited body: the new text under the signature the message was sent with. */
export function keepSignature(sentBody: string, newText: string): string {
  const { signature } = splitSignature(sentBody);
  if (!signature || newText.startsWith(signature)) return newText;
  return `${signature}${newText}`;
}
