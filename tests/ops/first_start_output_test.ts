import assert from "node:assert/strict";
import { deadline } from "../helpers/server.ts";

/**
 * What a first start prints beyond our own log (issue 50 item 18): neither Deno's "Ignored build
 * scripts" box nor its Deno.serve "legacy behavior" warning about request.signal.
 */

const root = new URL("../../", import.meta.url);

/** The npm packages of node_modules that declare an install-time script, as name@version. */
async function packagesWithInstallScripts(): Promise<string[]> {
  const found: string[] = [];
  for await (const entry of Deno.readDir(new URL("node_modules/.deno/", root))) {
    if (!entry.isDirectory || !entry.name.includes("@")) continue;
    const at = entry.name.lastIndexOf("@");
    const name = entry.name.slice(0, at).replace("+", "/");
    const version = entry.name.slice(at + 1).split("_")[0];
    const manifest = new URL(
      `node_modules/.deno/${entry.name}/node_modules/${name}/package.json`,
      root,
    );
    let scripts: Record<string, string> = {};
    try {
      scripts = JSON.parse(await Deno.readTextFile(manifest)).scripts ?? {};
    } catch {
      continue;
    }
    if (["preinstall", "install", "postinstall"].some((s) => s in scripts)) {
      found.push(`${name}@${version}`);
    }
  }
  return found.sort();
}

Deno.test("first start - every package with an install script is decided in deno.json (allowScripts), so Deno prints no 'Ignored build scripts' box", async () => {
  const config = JSON.parse(await Deno.readTextFile(new URL("deno.json", root)));
  const decided: string[] = [
    ...(config.allowScripts?.allow ?? []),
    ...(config.allowScripts?.deny ?? []),
  ];
  const packages = await packagesWithInstallScripts();
  assert.ok(packages.length > 0, "node_modules was read");
  for (const pkg of packages) {
    const name = pkg.slice(0, pkg.lastIndexOf("@"));
    assert.ok(
      decided.some((d) => d === `npm:${name}` || d === `npm:${pkg}`),
      `${pkg} runs an install script: allow or deny it in deno.json "allowScripts"`,
    );
  }
  // None is needed: Baileys' only checks the Node version, protobufjs' an old CLI's
  // dependencies, esbuild's checks the binary Deno already installed from its platform package,
  // and @scarf/scarf's reports the install to its vendor.
  assert.deepEqual(config.allowScripts.allow ?? [], []);
});

Deno.test("first start - a streamed (chunked) request body is served without Deno's request.signal warning, and still limited", async () => {
  const dir = await Deno.makeTempDir();
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "main.ts"],
    cwd: new URL(".", root),
    // LOG_LEVEL is set: the suite runs with LOG_LEVEL=warn, which the child would inherit and
    // then never print the line that says where it listens (this test hung CI that way).
    env: {
      PORT: "0",
      DATA_DIR: dir,
      BCRYPT_COST: "4",
      BODY_LIMIT_BYTES: "2048",
      LOG_LEVEL: "info",
    },
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const decoder = new TextDecoder();
  let out = "";
  const reader = child.stdout.getReader();
  let port = 0;
  while (!port) {
    const { done, value } = await deadline(
      reader.read(),
      60_000,
      () => `main.ts never said where it listens:\n${out}`,
    ).catch((error) => {
      child.kill("SIGKILL");
      throw error;
    });
    if (done) break;
    out += decoder.decode(value);
    const listening = /"url":"http:\/\/localhost:(\d+)"/.exec(out);
    if (listening) port = Number(listening[1]);
  }
  const rest = (async () => {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      out += decoder.decode(value);
    }
  })();
  const errors = (async () => decoder.decode(await new Response(child.stderr).arrayBuffer()))();
  try {
    assert.ok(port > 0, out);
    const streamed = (text: string) =>
      new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(new TextEncoder().encode(text));
          controller.close();
        },
      });
    const login = await fetch(`http://localhost:${port}/api/auth/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: streamed(JSON.stringify({ email: "nobody@x.test", password: "wrong-password" })),
    });
    assert.equal(login.status, 401, "the streamed body was read");
    assert.equal((await login.json()).error, "ERR_INVALID_CREDENTIALS");
    const big = await fetch(`http://localhost:${port}/api/auth/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: streamed(JSON.stringify({ email: "x".repeat(4096), password: "p" })),
    });
    assert.equal(big.status, 413);
    assert.equal((await big.json()).error, "ERR_BODY_TOO_LARGE");
  } finally {
    child.kill("SIGTERM");
    await child.status;
    await rest;
    const stderr = await errors;
    await Deno.remove(dir, { recursive: true });
    assert.doesNotMatch(stderr + out, /legacy behavior|request\.signal/);
  }
});
