/**
 * The SQL the app writes for SQLite, said in PostgreSQL (issue 46). Repositories and migrations
 * keep one text: names are camelCase and unquoted (SQLite keeps their case, PostgreSQL would fold
 * them), and a few SQLite words have a PostgreSQL counterpart with the same observable result.
 * Applied by db/postgres.ts to every statement on a PostgreSQL database; what cannot be said
 * word by word (full-text search, SQLite's catalogue) is a dialect branch where it is used.
 *
 * Word by word:
 * - a camelCase name is quoted ("companyId"); snake_case names need nothing;
 * - LIKE is ILIKE (SQLite's LIKE ignores case); IFNULL is coalesce; GLOB is a regular expression;
 * - `a IS b` / `a IS NOT b` (SQLite's null-safe comparison) are IS [NOT] DISTINCT FROM;
 * - two-argument max()/min() are greatest()/least(); group_concat is string_agg;
 * - date(), datetime(), strftime(), unixepoch() call the sqlite_* functions of
 *   db/postgres_compat.ts (the same text out of the same ISO text in);
 * - INDEXED BY hints and unary `+` (SQLite's "do not use this index") are dropped;
 * - INSERT OR IGNORE is INSERT ... ON CONFLICT DO NOTHING;
 * - in DDL: INTEGER is BIGINT, an INTEGER PRIMARY KEY an identity, REAL double precision, BLOB
 *   bytea; AUTOINCREMENT and WITHOUT ROWID go; a SQLite trigger becomes a PL/pgSQL function and
 *   its trigger (postgresTrigger).
 * Statements that only SQLite has (PRAGMA, FTS5 tables and the triggers that feed them) are
 * answered with nothing: `null`.
 */

type Token = {
  kind: "word" | "string" | "quoted" | "space" | "symbol" | "number" | "param";
  text: string;
};

function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (c === "'") {
      let j = i + 1;
      while (j < text.length) {
        if (text[j] === "'" && text[j + 1] === "'") j += 2;
        else if (text[j] === "'") break;
        else j++;
      }
      tokens.push({ kind: "string", text: text.slice(i, j + 1) });
      i = j + 1;
    } else if (c === '"' || c === "`") {
      const j = text.indexOf(c, i + 1);
      const end = j < 0 ? text.length : j + 1;
      tokens.push({ kind: "quoted", text: `"${text.slice(i + 1, end - 1)}"` });
      i = end;
    } else if (c === "-" && text[i + 1] === "-") {
      const j = text.indexOf("\n", i);
      i = j < 0 ? text.length : j;
      tokens.push({ kind: "space", text: " " });
    } else if (/\s/.test(c)) {
      let j = i;
      while (j < text.length && /\s/.test(text[j])) j++;
      tokens.push({ kind: "space", text: text.slice(i, j) });
      i = j;
    } else if (/[A-Za-z_]/.test(c)) {
      let j = i;
      while (j < text.length && /\w/.test(text[j])) j++;
      tokens.push({ kind: "word", text: text.slice(i, j) });
      i = j;
    } else if (/[0-9]/.test(c)) {
      let j = i;
      while (j < text.length && /[\w.]/.test(text[j])) j++;
      tokens.push({ kind: "number", text: text.slice(i, j) });
      i = j;
    } else if (c === "$" && /[0-9]/.test(text[i + 1] ?? "")) {
      let j = i + 1;
      while (j < text.length && /[0-9]/.test(text[j])) j++;
      tokens.push({ kind: "param", text: text.slice(i, j) });
      i = j;
    } else if (c === "?") {
      tokens.push({ kind: "param", text: c });
      i++;
    } else {
      const two = text.slice(i, i + 2);
      const op = ["<>", "<=", ">=", "!=", "||", "<<", ">>", "::", "=="].includes(two) ? two : c;
      tokens.push({ kind: "symbol", text: op });
      i += op.length;
    }
  }
  return tokens;
}

const CAMEL = /^[a-z][a-z0-9_]*[A-Z]\w*$/;
/** Whether the JOIN at `join` has an ON of its own (before the next JOIN or clause, same depth). */
function joinHasOn(tokens: Token[], join: number): boolean {
  let depth = 0;
  for (let i = join + 1; i < tokens.length; i++) {
    const t = tokens[i];
    if (t.text === "(") depth++;
    else if (t.text === ")") {
      if (depth === 0) return false;
      depth--;
    } else if (depth === 0 && t.kind === "word") {
      const word = t.text.toUpperCase();
      if (word === "ON") return true;
      if (["JOIN", "WHERE", "GROUP", "ORDER", "LIMIT", "UNION", "HAVING"].includes(word)) {
        return false;
      }
    }
  }
  return false;
}

const upper = (t: Token | undefined) => t?.kind === "word" ? t.text.toUpperCase() : t?.text;

/** Index of the next non-space token after i (tokens.length when none). */
function next(tokens: Token[], i: number): number {
  let j = i + 1;
  while (j < tokens.length && tokens[j].kind === "space") j++;
  return j;
}
function previous(tokens: Token[], i: number): number {
  let j = i - 1;
  while (j >= 0 && tokens[j].kind === "space") j--;
  return j;
}

/** The index of the `)` closing the `(` at open, and the top-level commas between. */
function closing(tokens: Token[], open: number): { close: number; commas: number[] } {
  let depth = 0;
  const commas: number[] = [];
  for (let j = open; j < tokens.length; j++) {
    const t = tokens[j].text;
    if (tokens[j].kind !== "symbol") continue;
    if (t === "(") depth++;
    else if (t === ")" && --depth === 0) return { close: j, commas };
    else if (t === "," && depth === 1) commas.push(j);
  }
  return { close: tokens.length - 1, commas };
}

/** The last token of the operand starting at `at`: a value, a (qualified) name, a call, (…). */
function operandEnd(tokens: Token[], at: number): number {
  if (tokens[at]?.text === "(") return closing(tokens, at).close;
  let end = at;
  while (tokens[end + 1]?.text === "." && tokens[end + 2]) end += 2;
  const call = next(tokens, end);
  return tokens[call]?.text === "(" ? closing(tokens, call).close : end;
}

/** Words after which a `+` is unary (SQLite's index hint) rather than an addition. */
const BEFORE_OPERAND = new Set([
  "WHERE",
  "AND",
  "OR",
  "ON",
  "BY",
  "SELECT",
  "NOT",
  "WHEN",
  "THEN",
  "ELSE",
  "(",
  ",",
  "=",
  "<",
  ">",
  "<=",
  ">=",
  "<>",
]);

/** What may follow a subquery in FROM when it has no name. */
const NOT_AN_ALIAS = new Set([
  "WHERE",
  "GROUP",
  "ORDER",
  "LIMIT",
  "UNION",
  "HAVING",
  "JOIN",
  "LEFT",
  "CROSS",
  "INNER",
  "ON",
  ")",
  ",",
  ";",
  "WINDOW",
]);

const FUNCTIONS: Record<string, string> = {
  IFNULL: "coalesce",
  DATE: "sqlite_date",
  DATETIME: "sqlite_datetime",
  STRFTIME: "sqlite_strftime",
  UNIXEPOCH: "sqlite_unixepoch",
  JULIANDAY: "sqlite_julianday",
  INSTR: "strpos",
  JSON_INSERT: "sqlite_json_insert",
  JSON_EXTRACT: "sqlite_json_extract",
  JSON_ARRAY_LENGTH: "sqlite_json_array_length",
  JSON_OBJECT: "json_build_object",
  JSON: "sqlite_json",
  JSON_ARRAY: "json_build_array",
};

function translateTokens(tokens: Token[], ddl: boolean): Token[] {
  let conflict = false;
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    if (t.kind === "word") {
      const word = t.text.toUpperCase();
      const after = next(tokens, i);
      const call = tokens[after]?.text === "(";
      if (CAMEL.test(t.text)) {
        t.text = `"${t.text}"`;
        t.kind = "quoted";
      } else if (word === "LIKE" && upper(tokens[previous(tokens, i)]) !== "I") {
        t.text = "ILIKE";
        // The pattern's explicit collation decides the comparison's: a column of the nocase
        // collation (users.email) is nondeterministic, which ILIKE refuses.
        tokens.splice(operandEnd(tokens, after) + 1, 0, {
          kind: "symbol",
          text: ' COLLATE "default"',
        });
      } else if (word === "GLOB") {
        t.text = "SIMILAR TO";
      } else if (word === "CROSS" && upper(tokens[after]) === "JOIN" && joinHasOn(tokens, after)) {
        // SQLite's CROSS JOIN … ON fixes the join order (server/reports/repository.ts); in
        // PostgreSQL a CROSS JOIN takes no ON, and the planner orders joins itself.
        t.text = "INNER";
      } else if (call && FUNCTIONS[word]) {
        t.text = FUNCTIONS[word];
      } else if (call && (word === "MAX" || word === "MIN")) {
        if (closing(tokens, after).commas.length > 0) {
          t.text = word === "MAX" ? "greatest" : "least";
        }
      } else if (call && word === "JSON_GROUP_ARRAY") {
        // Text, as SQLite answers it, and '[]' (not NULL) over no rows.
        t.text = "coalesce(json_agg";
        tokens[closing(tokens, after).close].text = ")::text, '[]')";
      } else if (call && word === "GROUP_CONCAT") {
        const { close, commas } = closing(tokens, after);
        t.text = "string_agg";
        tokens[after].text = "((";
        if (commas.length > 0) tokens[commas[0]].text = ")::text,";
        else tokens[close].text = ")::text, ',')";
      } else if ((word === "FROM" || word === "JOIN") && tokens[after]?.text === "(") {
        // PostgreSQL before 16 wants a name for every subquery in FROM.
        if (upper(tokens[next(tokens, after)]) === "SELECT") {
          const { close } = closing(tokens, after);
          const follower = upper(tokens[next(tokens, close)]);
          if (follower === undefined || NOT_AN_ALIAS.has(follower)) {
            tokens[close].text = `) AS sub${i}`;
          }
        }
      } else if (word === "IS") {
        const n = next(tokens, i);
        const w = upper(tokens[n]);
        if (w === "NOT") {
          const w2 = upper(tokens[next(tokens, n)]);
          if (!["NULL", "TRUE", "FALSE", "DISTINCT"].includes(w2 ?? "")) {
            t.text = "IS DISTINCT FROM";
            tokens[n].text = "";
          }
        } else if (!["NULL", "TRUE", "FALSE", "DISTINCT", "NOT"].includes(w ?? "")) {
          t.text = "IS NOT DISTINCT FROM";
        }
      } else if (word === "INDEXED" && upper(tokens[next(tokens, i)]) === "BY") {
        const by = next(tokens, i);
        const name = next(tokens, by);
        t.text = "";
        tokens[by].text = "";
        if (tokens[name]) tokens[name].text = "";
      } else if (word === "OR" && upper(tokens[previous(tokens, i)]) === "INSERT") {
        const what = next(tokens, i);
        if (upper(tokens[what]) === "IGNORE") {
          t.text = "";
          tokens[what].text = "";
          conflict = true;
        }
      } else if (ddl) {
        if (word === "AUTOINCREMENT") t.text = "";
        else if (word === "INTEGER") {
          const p = next(tokens, i);
          if (upper(tokens[p]) === "PRIMARY") t.text = "BIGINT GENERATED BY DEFAULT AS IDENTITY";
          else t.text = "BIGINT";
        } else if (word === "REAL") t.text = "DOUBLE PRECISION";
        else if (word === "BLOB") t.text = "BYTEA";
        else if (word === "WITHOUT" && upper(tokens[next(tokens, i)]) === "ROWID") {
          t.text = "";
          tokens[next(tokens, i)].text = "";
        }
      } else if (word === "REAL" && upper(tokens[previous(tokens, i)]) === "AS") {
        t.text = "DOUBLE PRECISION";
      }
    } else if (t.kind === "symbol" && t.text === "+") {
      const p = tokens[previous(tokens, i)];
      const n = tokens[i + 1];
      const operandBefore = p === undefined || BEFORE_OPERAND.has(upper(p) ?? "");
      if (operandBefore && n && (n.kind === "word" || n.kind === "quoted")) t.text = "";
    } else if (t.kind === "symbol" && t.text === "==") t.text = "=";
    else if (t.kind === "number" && (t.text === "1" || t.text === "0")) {
      // `WHERE 1`: SQLite's true; PostgreSQL wants a boolean.
      const before = upper(tokens[previous(tokens, i)]);
      const after = upper(tokens[next(tokens, i)]);
      if (
        (before === "WHERE" || before === "AND" || before === "OR" || before === "ON") &&
        (after === undefined || after.startsWith(")") ||
          ["AND", "OR", "ORDER", "GROUP", "LIMIT", ";", "WHERE", "LEFT", "JOIN"].includes(after))
      ) t.text = t.text === "1" ? "true" : "false";
    }
  }
  if (conflict) {
    let depth = 0;
    let at = tokens.length;
    for (let j = 0; j < tokens.length; j++) {
      if (tokens[j].text === "(") depth++;
      else if (tokens[j].text === ")") depth--;
      else if (depth === 0 && upper(tokens[j]) === "RETURNING") {
        at = j;
        break;
      }
    }
    while (at > 0 && (tokens[at - 1].kind === "space" || tokens[at - 1].text === ";")) at--;
    tokens.splice(at, 0, { kind: "symbol", text: " ON CONFLICT DO NOTHING " });
  }
  return tokens;
}

function render(tokens: Token[]): string {
  return tokens.map((t) => t.text).join("");
}

const SQLITE_ONLY = [
  /^\s*PRAGMA\b/i,
  /^\s*CREATE\s+VIRTUAL\s+TABLE\b/i,
  /^\s*(INSERT\s+INTO|DELETE\s+FROM|DROP\s+TABLE(\s+IF\s+EXISTS)?)\s+\w+_fts\b/i,
  /^\s*(CREATE|DROP)\s+TRIGGER\s+(IF\s+(NOT\s+)?EXISTS\s+)?\w+_fts_/i,
  /^\s*ANALYZE\b/i,
  /^\s*VACUUM\b/i,
];

/** The statement in PostgreSQL, or null for one that only SQLite has (answered with no rows). */
export function toPostgres(text: string): string | null {
  if (SQLITE_ONLY.some((pattern) => pattern.test(text))) return null;
  if (/^\s*CREATE\s+TRIGGER\b/i.test(text)) return postgresTrigger(text);
  const drop = /^\s*DROP\s+TRIGGER\s+(IF\s+EXISTS\s+)?(\w+)\s*;?\s*$/i.exec(text);
  if (drop) return dropTrigger(drop[2]);
  const ddl = /^\s*(CREATE|ALTER)\s+TABLE\b/i.test(text);
  return render(numberPlaceholders(translateTokens(tokenize(text), ddl)));
}

/**
 * SQLite's `?` placeholders become $1, $2, … in order: a statement written by hand for speed
 * (CompiledQuery.raw in server/whatsapp/inbound/repository.ts) has them; Kysely's own PostgreSQL
 * compiler writes $n already.
 */
function numberPlaceholders(tokens: Token[]): Token[] {
  let n = 0;
  for (const t of tokens) {
    if (t.kind === "param" && t.text === "?") t.text = `$${++n}`;
  }
  return tokens;
}

/**
 * PostgreSQL fires a table's triggers in the order of their names; SQLite fires the newest first.
 * The event triggers write the timeline in that order (ticket_events: 'handover' before
 * 'accepted' when both happen in one update), so on PostgreSQL each trigger's name starts with
 * `o` and 999999999 minus a number from the sequence `balcao_trigger_order`
 * (db/postgres_compat.ts): the newer, the earlier in name order. `<name>` below matches both that
 * form and a plain name.
 */
const TRIGGER_NAMED = (name: string) =>
  `(tgname = '${name}' OR (tgname ~ '^o[0-9]{9}_' AND substr(tgname, 12) = '${name}'))`;

/** SQLite names no table when dropping a trigger; PostgreSQL's are per table. */
function dropTrigger(name: string): string {
  return `DO $drop$ DECLARE r record; BEGIN
    FOR r IN SELECT tgname, tgrelid::regclass AS t FROM pg_trigger WHERE ${TRIGGER_NAMED(name)}
      AND NOT tgisinternal LOOP
      EXECUTE format('DROP TRIGGER %I ON %s', r.tgname, r.t);
    END LOOP;
    EXECUTE 'DROP FUNCTION IF EXISTS ${name}_fn()';
  END $drop$`;
}

/** Splits a trigger body at the semicolons outside strings and parentheses. */
function statementsOf(body: string): string[] {
  const tokens = tokenize(body);
  const out: string[] = [];
  let current = "";
  let depth = 0;
  for (const t of tokens) {
    if (t.text === "(") depth++;
    if (t.text === ")") depth--;
    if (t.text === ";" && depth === 0) {
      if (current.trim()) out.push(current.trim());
      current = "";
    } else current += t.kind === "quoted" ? t.text : t.text;
  }
  if (current.trim()) out.push(current.trim());
  return out;
}

/**
 * CREATE TRIGGER name (BEFORE|AFTER|INSTEAD OF) event ON table [FOR EACH ROW] [WHEN cond]
 * BEGIN statements END -> a PL/pgSQL function running the statements and a row trigger calling
 * it. A SELECT in the body is run for its effects (PERFORM); SELECT RAISE(ABORT, 'm') WHERE c
 * raises when c holds.
 */
export function postgresTrigger(text: string): string {
  const head =
    /^\s*CREATE\s+TRIGGER\s+(IF\s+NOT\s+EXISTS\s+)?(\w+)\s+(BEFORE|AFTER|INSTEAD\s+OF)\s+([\s\S]+?)\s+ON\s+(\w+)\s+(?:FOR\s+EACH\s+ROW\s+)?(?:WHEN\s+([\s\S]+?)\s+)?BEGIN\b([\s\S]*)\bEND\s*;?\s*$/i
      .exec(text);
  if (!head) throw new Error(`a SQLite trigger PostgreSQL cannot take: ${text.slice(0, 120)}`);
  const [, ifNotExists, name, timing, event, table, when, body] = head;
  const statements = statementsOf(body).map((statement) => {
    const raise =
      /^SELECT\s+RAISE\s*\(\s*ABORT\s*,\s*('(?:[^']|'')*')\s*\)\s*(?:WHERE\s+([\s\S]+))?$/i
        .exec(statement);
    if (raise) {
      const condition = raise[2] ? render(translateTokens(tokenize(raise[2]), false)) : "true";
      return `IF ${condition} THEN RAISE EXCEPTION ${raise[1]}; END IF;`;
    }
    const translated = toPostgres(statement);
    if (translated === null) return "";
    // A counter row made on first use (INSERT … WHERE NOT EXISTS, then UPDATE n = n + 1): under
    // SQLite's one writer nobody comes between; on PostgreSQL two transactions can both see no
    // row, and the second insert would fail on the key. It waits for the first and does nothing.
    if (
      /^\s*INSERT\b/i.test(statement) && /\bWHERE\s+NOT\s+EXISTS\b/i.test(statement) &&
      !/\bON\s+CONFLICT\b/i.test(statement)
    ) return `${translated} ON CONFLICT DO NOTHING;`;
    return `${translated.replace(/^\s*SELECT\b/i, "PERFORM")};`;
  });
  const returns = /BEFORE|INSTEAD/i.test(timing)
    ? (/DELETE/i.test(event) ? "RETURN OLD;" : "RETURN NEW;")
    : "RETURN NULL;";
  const translatedEvent = render(translateTokens(tokenize(event), false));
  const condition = when ? ` WHEN (${render(translateTokens(tokenize(when), false))})` : "";
  // PostgreSQL refuses WHEN on INSTEAD OF triggers, and a subquery in any trigger's WHEN: the
  // condition then moves into the function.
  const instead = /INSTEAD/i.test(timing) || /\bSELECT\b/i.test(when ?? "");
  const inner = statements.join("\n");
  const fnBody = instead && condition
    ? `IF ${condition.slice(" WHEN ".length)} THEN ${inner} END IF;`
    : inner;
  const create = `${timing.toUpperCase()} ${translatedEvent} ON ${table} FOR EACH ROW${
    instead ? "" : condition
  } EXECUTE FUNCTION ${name}_fn()`;
  const exists = ifNotExists
    ? "RETURN;"
    : `RAISE EXCEPTION 'trigger "${name}" already exists' USING ERRCODE = '42710';`;
  return `CREATE OR REPLACE FUNCTION ${name}_fn() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
${fnBody}
${returns}
END $fn$;
DO $trigger$ BEGIN
  IF EXISTS (SELECT 1 FROM pg_trigger WHERE ${TRIGGER_NAMED(name)} AND NOT tgisinternal) THEN
    ${exists}
  END IF;
  EXECUTE format('CREATE TRIGGER %I ',
    'o' || lpad((999999999 - nextval('balcao_trigger_order'))::text, 9, '0') || '_${name}')
    || $create$${create}$create$;
END $trigger$`;
}
