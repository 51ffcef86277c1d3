import assert from "node:assert/strict";
import { startV8Flags, v8FlagsOf } from "../helpers/start_flags.ts";

const root = new URL("../../deploy/", import.meta.url);
const read = (name: string) => Deno.readTextFile(new URL(name, root));

/** URLs as a client may send them, each with a secret the proxy must not write down. */
const SECRET_URLS = [
  "/socket?token=SECRET",
  "/resetpassword?email=a%40b.test&token=SECRET",
  "/api/resetpasswords/a%40b.test/SECRET/SECRET",
  "/api/resetpasswords/a%40b.test/SECRET/SECRET?x=SECRET",
  "/api/tickets?searchParam=SECRET",
];

Deno.test("deploy - the Caddy access log keeps no query string, no reset secrets and no Referer", async () => {
  const caddyfile = await read("Caddyfile");
  const log = caddyfile.slice(caddyfile.indexOf("\tlog {"));
  const rule = /request>uri regexp "([^"]+)" "([^"]*)"/.exec(log);
  assert.ok(rule, "the uri is filtered");
  assert.match(log, /request>headers>Referer delete/);
  // Caddy's regexp filter is Go's ReplaceAllString: ${n} is the n-th group, "" when unmatched.
  const pattern = new RegExp(rule[1], "g");
  const replacement = rule[2].replace(/\$\{(\d+)\}/g, "$$$1");
  const logged = SECRET_URLS.map((url) => url.replace(pattern, replacement));
  assert.deepEqual(logged, [
    "/socket",
    "/resetpassword",
    "/api/resetpasswords/",
    "/api/resetpasswords/",
    "/api/tickets",
  ]);
});

Deno.test("deploy - the nginx access log format has the path only: no request line, query or Referer", async () => {
  const conf = await read("nginx.conf");
  const format = /log_format balcao((?:\s*'[^']*')+);/.exec(conf);
  assert.ok(format, "log_format balcao is defined");
  const fields = format[1];
  for (
    const variable of [
      /\$request\b(?!_)/,
      /\$request_uri/,
      /\$args/,
      /\$arg_/,
      /\$query_string/,
      /\$is_args/,
      /\$http_referer/,
    ]
  ) {
    assert.doesNotMatch(fields, variable);
  }
  assert.match(fields, /\$balcao_logged_path/);
  const logs = [...conf.matchAll(/^\s*access_log\s+(.+);/gm)].map((m) => m[1]);
  assert.equal(logs.length, conf.match(/^server \{/gm)?.length, "every server block logs");
  for (const line of logs) assert.match(line, / balcao$/);
  assert.match(
    conf,
    /map \$uri \$balcao_logged_path \{\s*~\^\/api\/resetpasswords\/\s+\/api\/resetpasswords\/;/,
  );
});

Deno.test("deploy - the unit creates files for its user alone; the proxy on this machine is trusted", async () => {
  assert.match(await read("balcao.service"), /^UMask=0077$/m);
  const env = await read("balcao.env.example");
  assert.match(env, /^TRUSTED_PROXIES=127\.0\.0\.1,::1$/m);
  assert.match(env, /^DATA_ENCRYPTION_KEY=$/m);
});

Deno.test("deploy - every way of starting the server gives V8 the same memory settings as deno task start", async () => {
  // Issue 33: the old generation's ceiling and a smaller young generation keep the peak under
  // 16 clients near 220 MB instead of 350 (docs/scaling.md, fourth round).
  const flags = (await startV8Flags()).join(",");
  assert.match(flags, /--max-old-space-size=\d+/);
  assert.match(flags, /--max-semi-space-size=\d+/);
  const unit = (await read("balcao.service")).split("\n").find((l) => l.startsWith("ExecStart="));
  assert.equal(v8FlagsOf(unit ?? ""), flags, "deploy/balcao.service");
  const launcher = (await read("release/balcao")).split("\n").find((l) => /\bmain\.ts\b/.test(l));
  assert.equal(v8FlagsOf(launcher ?? ""), flags, "deploy/release/balcao");
});
