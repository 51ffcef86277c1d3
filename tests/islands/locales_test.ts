import assert from "node:assert/strict";
import pt from "../../locales/pt.json" with { type: "json" };
import en from "../../locales/en.json" with { type: "json" };
import es from "../../locales/es.json" with { type: "json" };
import type { CatalogueCode, OwnCode } from "../../server/errors.ts";

type Tree = { [key: string]: string | Tree };

function keys(tree: Tree, prefix = ""): string[] {
  return Object.entries(tree).flatMap(([key, value]) =>
    typeof value === "string" ? [`${prefix}${key}`] : keys(value, `${prefix}${key}.`)
  );
}

/** Every catalogue code (seeds/000 section 8); a missing one here fails type checking. */
const CATALOGUE: Record<CatalogueCode, true> = {
  ERR_NO_OTHER_WHATSAPP: true,
  ERR_NO_DEF_WAPP_FOUND: true,
  ERR_WAPP_NOT_INITIALIZED: true,
  ERR_WAPP_CHECK_CONTACT: true,
  ERR_WAPP_INVALID_CONTACT: true,
  ERR_WAPP_DOWNLOAD_MEDIA: true,
  ERR_INVALID_CREDENTIALS: true,
  ERR_SENDING_WAPP_MSG: true,
  ERR_DELETE_WAPP_MSG: true,
  ERR_OTHER_OPEN_TICKET: true,
  ERR_SESSION_EXPIRED: true,
  ERR_USER_CREATION_DISABLED: true,
  ERR_NO_PERMISSION: true,
  ERR_DUPLICATED_CONTACT: true,
  ERR_NO_SETTING_FOUND: true,
  ERR_NO_CONTACT_FOUND: true,
  ERR_NO_TICKET_FOUND: true,
  ERR_NO_USER_FOUND: true,
  ERR_NO_WAPP_FOUND: true,
  ERR_CREATING_MESSAGE: true,
  ERR_CREATING_TICKET: true,
  ERR_FETCH_WAPP_MSG: true,
  ERR_QUEUE_COLOR_ALREADY_EXISTS: true,
  ERR_WAPP_GREETING_REQUIRED: true,
};

/**
 * Our own codes whose server message carries details the translation would lose: the client
 * shows the server's message for them (the expired subscription names its date).
 */
const SHOWN_RAW: Partial<Record<OwnCode, true>> = { ERR_SUBSCRIPTION_EXPIRED: true };

Deno.test("locales - pt, en and es have exactly the same keys", () => {
  const ptKeys = keys(pt).sort();
  assert.deepEqual(keys(en).sort(), ptKeys, "en differs from pt");
  assert.deepEqual(keys(es).sort(), ptKeys, "es differs from pt");
});

Deno.test("locales - every error code of the catalogue has a translation in each language", () => {
  for (const [lng, tree] of Object.entries({ pt, en, es })) {
    const errors = (tree as Tree).errors as Tree;
    for (const code of Object.keys(CATALOGUE)) {
      assert.equal(typeof errors[code], "string", `${lng}: errors.${code}`);
    }
    assert.equal(typeof errors.generic, "string");
    for (const code of Object.keys(SHOWN_RAW)) {
      assert.equal(errors[code], undefined, `${lng}: ${code} is shown with the server's message`);
    }
  }
  assert.equal(en.errors.generic, "An error occurred!");
});

Deno.test("locales - interpolations match across languages", () => {
  const vars = (s: string) => [...s.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort();
  const flat = (tree: Tree) => {
    const out = new Map<string, string>();
    const walk = (t: Tree, p: string) => {
      for (const [k, v] of Object.entries(t)) {
        if (typeof v === "string") out.set(`${p}${k}`, v);
        else walk(v, `${p}${k}.`);
      }
    };
    walk(tree, "");
    return out;
  };
  const base = flat(pt);
  for (const [lng, tree] of Object.entries({ en, es })) {
    for (const [key, value] of flat(tree as Tree)) {
      assert.deepEqual(vars(value), vars(base.get(key) ?? ""), `${lng}: ${key}`);
    }
  }
});
