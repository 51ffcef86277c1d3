/**
 * Money is stored as integer cents (migration 0700: exact sums on both engines) and answered in
 * reais with two decimals, as the API always did. The repositories convert at the boundary.
 */
export function centsOf(reais: number): number {
  return Math.round(reais * 100);
}

export function reaisOf(cents: number): number {
  return Number(cents) / 100;
}

/** A stored row with its cents as the services use it: `value` in reais. */
export function inReais<T extends { valueCents: number }>(
  row: T,
): Omit<T, "valueCents"> & { value: number } {
  const { valueCents, ...rest } = row;
  return { ...rest, value: reaisOf(valueCents) };
}
