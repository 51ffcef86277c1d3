import assert from "node:assert/strict";
import { ftsQuery } from "./fts.ts";

Deno.test("fts query - quotes every word, prefix-matches words of two or more characters", () => {
  assert.equal(ftsQuery("olá mundo"), '"olá"* "mundo"*');
  assert.equal(ftsQuery('  "NEAR(a b)" OR -x* col:y '), '"NEAR"* "a" "b" "OR"* "x" "col"* "y"');
  assert.equal(ftsQuery("pedido 123"), '"pedido"* "123"*');
  assert.equal(ftsQuery(' " * ( ) '), undefined);
  assert.equal(ftsQuery(""), undefined);
});
