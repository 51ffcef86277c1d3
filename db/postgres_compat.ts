/**
 * What a PostgreSQL database needs before the migrations run (issue 46), created by
 * db/postgres.ts on every open (idempotent): the extensions of search (unaccent, pg_trgm), the
 * `nocase` collation that `COLLATE NOCASE` names, and SQLite's time and JSON functions that the
 * shared SQL calls (db/postgres_sql.ts renames date() to sqlite_date() and so on). Timestamps are
 * ISO-8601 UTC text on both engines; these functions read and write that text, so a column keeps
 * one meaning whichever engine holds it.
 */
export const POSTGRES_PREPARE = [
  `CREATE EXTENSION IF NOT EXISTS unaccent`,
  `CREATE EXTENSION IF NOT EXISTS pg_trgm`,
  // Numbers the triggers in the order they are created (db/postgres_sql.ts, postgresTrigger).
  `CREATE SEQUENCE IF NOT EXISTS balcao_trigger_order`,
  // Case-insensitive equality and order, as SQLite's NOCASE (ICU level 2: case, not accents).
  `DO $$ BEGIN
     IF NOT EXISTS (SELECT 1 FROM pg_collation WHERE collname = 'nocase') THEN
       CREATE COLLATION nocase (provider = icu, locale = 'und-u-ks-level2', deterministic = false);
     END IF;
   END $$`,
  // Functions that call ours name them with their schema: pg_restore builds the indexes over
  // them with an empty search_path (db/postgres_backup.ts).
  // unaccent() is STABLE (it reads a dictionary); an index needs an IMMUTABLE expression.
  `CREATE OR REPLACE FUNCTION f_unaccent(text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE
     STRICT AS $$ SELECT public.unaccent('public.unaccent'::regdictionary, $1) $$`,
  `CREATE OR REPLACE FUNCTION sqlite_time(t text, mods text[]) RETURNS timestamp
   LANGUAGE plpgsql IMMUTABLE AS $$
   DECLARE
     result timestamp;
     m text;
     n text;
   BEGIN
     IF t IS NULL THEN RETURN NULL; END IF;
     IF 'unixepoch' = ANY(mods) THEN
       result := to_timestamp(t::double precision) AT TIME ZONE 'UTC';
     ELSIF lower(t) = 'now' THEN
       result := clock_timestamp() AT TIME ZONE 'UTC';
     ELSE
       BEGIN
         result := t::timestamptz AT TIME ZONE 'UTC';
       EXCEPTION WHEN others THEN
         RETURN NULL;
       END;
     END IF;
     FOREACH m IN ARRAY mods LOOP
       m := lower(trim(m));
       IF m IN ('subsec', 'subsecond', 'utc', 'localtime', 'auto', 'unixepoch') THEN
         CONTINUE;
       ELSIF m = 'start of day' THEN result := date_trunc('day', result);
       ELSIF m = 'start of month' THEN result := date_trunc('month', result);
       ELSIF m = 'start of year' THEN result := date_trunc('year', result);
       ELSIF m LIKE 'weekday %' THEN
         n := substr(m, 9);
         result := result + (((n::int - extract(dow FROM result)::int) + 7) % 7) * interval '1 day';
       ELSE
         result := result + m::interval;
       END IF;
     END LOOP;
     RETURN result;
   END $$`,
  `CREATE OR REPLACE FUNCTION sqlite_date(t text, VARIADIC mods text[] DEFAULT '{}')
   RETURNS text LANGUAGE sql IMMUTABLE AS
   $$ SELECT to_char(public.sqlite_time(t, mods), 'YYYY-MM-DD') $$`,
  `CREATE OR REPLACE FUNCTION sqlite_datetime(t text, VARIADIC mods text[] DEFAULT '{}')
   RETURNS text LANGUAGE sql IMMUTABLE AS
   $$ SELECT to_char(public.sqlite_time(t, mods), 'YYYY-MM-DD HH24:MI:SS') $$`,
  `CREATE OR REPLACE FUNCTION sqlite_unixepoch(t text, VARIADIC mods text[] DEFAULT '{}')
   RETURNS double precision LANGUAGE sql IMMUTABLE AS
   $$ SELECT CASE WHEN 'subsec' = ANY(mods) OR 'subsecond' = ANY(mods)
       THEN extract(epoch FROM public.sqlite_time(t, mods))::double precision
       ELSE floor(extract(epoch FROM public.sqlite_time(t, mods)))::double precision END $$`,
  `CREATE OR REPLACE FUNCTION sqlite_julianday(t text, VARIADIC mods text[] DEFAULT '{}')
   RETURNS double precision LANGUAGE sql IMMUTABLE AS
   $$ SELECT extract(epoch FROM public.sqlite_time(t, mods))::double precision / 86400 + 2440587.5 $$`,
  `CREATE OR REPLACE FUNCTION sqlite_strftime(fmt text, t text, VARIADIC mods text[] DEFAULT '{}')
   RETURNS text LANGUAGE plpgsql IMMUTABLE AS $$
   DECLARE
     x timestamp := public.sqlite_time(t, mods);
     out text := '';
     i int := 1;
     c text;
   BEGIN
     IF x IS NULL THEN RETURN NULL; END IF;
     WHILE i <= length(fmt) LOOP
       c := substr(fmt, i, 1);
       IF c = '%' AND i < length(fmt) THEN
         i := i + 1;
         c := substr(fmt, i, 1);
         out := out || CASE c
           WHEN 'Y' THEN to_char(x, 'YYYY')
           WHEN 'm' THEN to_char(x, 'MM')
           WHEN 'd' THEN to_char(x, 'DD')
           WHEN 'H' THEN to_char(x, 'HH24')
           WHEN 'M' THEN to_char(x, 'MI')
           WHEN 'S' THEN to_char(x, 'SS')
           WHEN 'f' THEN to_char(x, 'SS.MS')
           WHEN 'j' THEN to_char(x, 'DDD')
           WHEN 'w' THEN extract(dow FROM x)::int::text
           WHEN 's' THEN floor(extract(epoch FROM x))::bigint::text
           WHEN '%' THEN '%'
           ELSE '%' || c END;
       ELSE
         out := out || c;
       END IF;
       i := i + 1;
     END LOOP;
     RETURN out;
   END $$`,
  // json_insert(doc, '$[#]', value): SQLite's append to an array, the one form the app uses.
  `CREATE OR REPLACE FUNCTION sqlite_json_insert(doc text, path text, value text)
   RETURNS text LANGUAGE sql IMMUTABLE AS
   $$ SELECT (coalesce(doc, '[]')::jsonb || jsonb_build_array(value))::text $$`,
  // …and of a JSON value (json_object(...): an edit's previous body), appended as that value.
  `CREATE OR REPLACE FUNCTION sqlite_json_insert(doc text, path text, value json)
   RETURNS text LANGUAGE sql IMMUTABLE AS
   $$ SELECT (coalesce(doc, '[]')::jsonb || jsonb_build_array(value))::text $$`,
  `CREATE OR REPLACE FUNCTION sqlite_json(doc text) RETURNS json LANGUAGE sql IMMUTABLE AS
   $$ SELECT doc::json $$`,
  // json(json_object(...)): the inner object is json already (the inbound lookup nests them).
  `CREATE OR REPLACE FUNCTION sqlite_json(doc json) RETURNS json LANGUAGE sql IMMUTABLE AS
   $$ SELECT doc $$`,
  `CREATE OR REPLACE FUNCTION sqlite_json_extract(doc text, path text)
   RETURNS text LANGUAGE sql IMMUTABLE AS
   $$ SELECT jsonb_path_query_first(doc::jsonb, path::jsonpath) #>> '{}' $$`,
  `CREATE OR REPLACE FUNCTION sqlite_json_array_length(doc text)
   RETURNS bigint LANGUAGE sql IMMUTABLE AS $$ SELECT jsonb_array_length(doc::jsonb)::bigint $$`,
  // The columns of a table, as SQLite's table-valued pragma lists them.
  `CREATE OR REPLACE FUNCTION pragma_table_info(t text) RETURNS TABLE (name text)
   LANGUAGE sql STABLE AS $$ SELECT column_name::text FROM information_schema.columns
     WHERE table_schema = current_schema() AND table_name = t ORDER BY ordinal_position $$`,
  // n + (condition), n = (condition): SQLite's comparisons are 0/1 integers in arithmetic.
  `CREATE OR REPLACE FUNCTION sqlite_int_plus_bool(a bigint, b boolean) RETURNS bigint
   LANGUAGE sql IMMUTABLE AS $$ SELECT a + b::int $$`,
  `CREATE OR REPLACE FUNCTION sqlite_int_eq_bool(a bigint, b boolean) RETURNS boolean
   LANGUAGE sql IMMUTABLE AS $$ SELECT a = b::int $$`,
  `DO $$ BEGIN
     IF NOT EXISTS (SELECT 1 FROM pg_operator WHERE oprname = '+'
       AND oprleft = 'bigint'::regtype AND oprright = 'boolean'::regtype) THEN
       CREATE OPERATOR + (LEFTARG = bigint, RIGHTARG = boolean, FUNCTION = sqlite_int_plus_bool);
     END IF;
     IF NOT EXISTS (SELECT 1 FROM pg_operator WHERE oprname = '='
       AND oprleft = 'bigint'::regtype AND oprright = 'boolean'::regtype) THEN
       CREATE OPERATOR = (LEFTARG = bigint, RIGHTARG = boolean, FUNCTION = sqlite_int_eq_bool);
     END IF;
   END $$`,
  // round(x, digits) for double precision (PostgreSQL has it for numeric only).
  `CREATE OR REPLACE FUNCTION round(x double precision, digits integer)
   RETURNS double precision LANGUAGE sql IMMUTABLE AS
   $$ SELECT round(x::numeric, digits)::double precision $$`,
  // SQLite's total(x): a sum that is 0.0 over no rows (or only NULLs), never NULL.
  `DO $$ BEGIN
     IF NOT EXISTS (SELECT 1 FROM pg_proc p WHERE p.proname = 'total' AND p.prokind = 'a'
         AND p.pronamespace = 'public'::regnamespace) THEN
       CREATE AGGREGATE public.total(double precision)
         (sfunc = float8pl, stype = double precision, initcond = '0');
     END IF;
   END $$`,
  // SUM(condition) counts where it holds, as SQLite's booleans are 0/1.
  `CREATE OR REPLACE FUNCTION sqlite_bool_sum(s bigint, b boolean) RETURNS bigint
   LANGUAGE sql IMMUTABLE AS
   $$ SELECT CASE WHEN b IS NULL THEN s ELSE coalesce(s, 0) + b::int END $$`,
  `DO $$ BEGIN
     IF NOT EXISTS (SELECT 1 FROM pg_proc p JOIN pg_type ty ON ty.oid = p.proargtypes[0]
       WHERE p.proname = 'sum' AND p.prokind = 'a' AND ty.typname = 'bool'
         AND p.pronamespace = 'public'::regnamespace) THEN
       CREATE AGGREGATE public.sum(boolean) (sfunc = sqlite_bool_sum, stype = bigint);
     END IF;
   END $$`,
];
