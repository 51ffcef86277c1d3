/**
 * The two functions used from csv-parse/sync and csv-stringify/sync. Their own declarations
 * carry `/// <reference types="node" />`, which Deno resolves to the old @types/node another
 * dependency pulls in, breaking the types of `node:` imports everywhere; these stand in for them.
 */
export function parse(input: string, options?: Record<string, unknown>): unknown;
export function stringify(
  input: readonly (readonly unknown[])[],
  options?: Record<string, unknown>,
): string;
