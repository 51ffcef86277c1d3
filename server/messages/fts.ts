/**
 * Builds an FTS5 MATCH expression from what a user typed, so that no input is ever read as FTS5
 * syntax (quotes, NEAR, column filters, '-', '*', parentheses...). Each word becomes a quoted
 * phrase; all words must appear (implicit AND); words of two or more characters match as
 * prefixes ("ola"* finds "olá" and "olaf": the table removes diacritics). Returns undefined when
 * nothing searchable is left, so that callers skip the message clause entirely. `prefix` false
 * matches whole words only (accents still ignored): a prefix merges the index's entries of every
 * word that starts with it across the whole company before any rowid bound applies.
 */
export const MAX_SEARCH_TOKENS = 8;

export function ftsQuery(input: string, prefix = true): string | undefined {
  const words = input.normalize("NFKC").match(/[\p{L}\p{N}]+/gu) ?? [];
  const tokens = words.slice(0, MAX_SEARCH_TOKENS).map((word) => {
    // The token has letters and digits only, so there is no '"' to double; quoting anyway keeps
    // FTS5 keywords (AND, OR, NOT, NEAR) literal.
    const quoted = `"${word}"`;
    return prefix && word.length >= 2 ? `${quoted}*` : quoted;
  });
  return tokens.length === 0 ? undefined : tokens.join(" ");
}

/**
 * The same search for PostgreSQL (issue 46): a to_tsquery('simple', ...) text over the words
 * without their accents, lower-cased, all required, prefixes as in ftsQuery. Words are letters and
 * digits only, so nothing typed is read as tsquery syntax. The indexed side is
 * to_tsvector('simple', f_unaccent(body)) (migration 0640), so `orcamento` finds `orçamento`.
 */
export function tsQuery(input: string, prefix = true): string | undefined {
  const words = input.normalize("NFKC").match(/[\p{L}\p{N}]+/gu) ?? [];
  const tokens = words.slice(0, MAX_SEARCH_TOKENS).map((word) => {
    const plain = word.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase();
    return prefix && word.length >= 2 ? `${plain}:*` : plain;
  });
  return tokens.length === 0 ? undefined : tokens.join(" & ");
}
