import assert from "node:assert/strict";
import { Hono } from "hono";
import { AppError } from "../../server/errors.ts";
import { Outbound } from "../../server/http/outbound_fetch.ts";
import { FakeDns } from "../fakes/dns.ts";
import { serveFake } from "../fakes/serve.ts";
import { TestNetwork } from "../helpers/network.ts";

/**
 * server/http/outbound_fetch.ts on its own: the address connected to is the one checked, the
 * literal forms are refused before any connection, TLS names the host, and the HTTP/1.1 client
 * reads what real servers send. The test's DNS server and network: no packet leaves the machine.
 */
const PUBLIC = "1.2.3.4"; // a public address: reached only through a route of the test network
const TLS_DIR = new URL("../fakes/tls/", import.meta.url);

async function refusedUrl(promise: Promise<unknown>) {
  await assert.rejects(promise, (error) => {
    assert.ok(error instanceof AppError, String(error));
    assert.equal(error.code, "ERR_INTEGRATION_URL");
    return true;
  });
}

Deno.test("outbound - IPv4-embedding, NAT64, site-local and other literal forms are refused before connecting", async () => {
  const net = new TestNetwork();
  const outbound = new Outbound({ allowPrivate: false, connect: net.connect });
  const refused = [
    "http://[::7f00:1]/",
    "http://[::ffff:0:7f00:1]/",
    "http://[::ffff:127.0.0.1]/",
    "http://[64:ff9b::7f00:1]/",
    "http://[64:ff9b:1::a00:1]/",
    "http://[fec0::1]/",
    "http://[fc00::1]/",
    "http://[fe80::1]/",
    "http://[2002:7f00:1::1]/",
    "http://[2001::7f00:1]/",
    "http://[::]/",
    "http://[ff02::1]/",
    "http://0x7f.1/",
    "http://2130706433/",
    "http://0.0.0.0/",
    "http://100.64.0.1/",
    "http://198.18.0.1/",
    "http://224.0.0.1/",
    "http://255.255.255.255/",
    "http://localhost./",
    "http://metadata.google.internal/",
  ];
  for (const url of refused) await refusedUrl(outbound.fetch(url));
  assert.deepEqual(net.asked, [], "no connection was even attempted");
  // A public literal is connected to as written (the test network refuses it: not routed).
  await assert.rejects(
    outbound.fetch(`http://[2606:4700::1111]:81/`),
    Deno.errors.ConnectionRefused,
  );
  await assert.rejects(outbound.fetch(`http://${PUBLIC}:81/`), Deno.errors.ConnectionRefused);
  assert.deepEqual(net.asked, ["2606:4700::1111:81", `${PUBLIC}:81`]);
});

Deno.test("outbound - a name is resolved once: the connection goes to the address that was checked", async () => {
  const dns = await FakeDns.start();
  const net = new TestNetwork();
  const service = serveFake(new Hono().get("/", (c) => c.text(`hello ${c.req.header("host")}`)));
  try {
    const port = Number(new URL(service.url).port);
    const outbound = new Outbound({
      allowPrivate: false,
      dnsServer: dns.server,
      connect: net.connect,
    });
    dns.rebind("rebind.test", PUBLIC, "127.0.0.1");
    await assert.rejects(
      outbound.fetch(`http://rebind.test:${port}/`),
      Deno.errors.ConnectionRefused,
    );
    assert.deepEqual(net.asked, [`${PUBLIC}:${port}`]);
    // The next call asks again and gets 127.0.0.1: refused before connecting.
    await refusedUrl(outbound.fetch(`http://rebind.test:${port}/`));
    assert.deepEqual(net.asked, [`${PUBLIC}:${port}`]);
    assert.deepEqual(dns.asked("rebind.test").map((q) => q.answered), [[PUBLIC], ["127.0.0.1"]]);
    // A name that resolves to a public address reaches it, with the name as Host.
    dns.set("ok.test", PUBLIC);
    net.route(PUBLIC, port, port);
    const answer = await outbound.fetch(`http://ok.test:${port}/`);
    assert.equal(await answer.text(), `hello ok.test:${port}`);
    // Any internal address among a name's answers refuses it (which one is used is not ours).
    dns.set("mixed.test", PUBLIC, "10.0.0.1");
    await refusedUrl(outbound.fetch(`http://mixed.test:${port}/`));
    await refusedUrl(outbound.fetch(`http://nowhere.test:${port}/`));
  } finally {
    await service.close();
    dns.close();
  }
});

Deno.test("outbound - TLS goes to the checked address with the URL's name as server name and certificate name", async () => {
  const dns = await FakeDns.start();
  const net = new TestNetwork();
  const server = Deno.serve({
    hostname: "127.0.0.1",
    port: 0,
    cert: await Deno.readTextFile(new URL("secure.test.pem", TLS_DIR)),
    key: await Deno.readTextFile(new URL("secure.test.key", TLS_DIR)),
    onListen() {},
  }, (req) => new Response(`tls ${req.headers.get("host")}`));
  try {
    net.route(PUBLIC, 443, server.addr.port);
    dns.set("secure.test", PUBLIC);
    dns.set("other.test", PUBLIC);
    const caCerts = [await Deno.readTextFile(new URL("ca.pem", TLS_DIR))];
    const outbound = new Outbound({
      allowPrivate: false,
      dnsServer: dns.server,
      connect: net.connect,
      caCerts,
    });
    assert.equal(await (await outbound.fetch("https://secure.test/")).text(), "tls secure.test");
    // The same server under a name its certificate does not carry: refused.
    await assert.rejects(outbound.fetch("https://other.test/"), /certificate/);
    // Without our test CA the certificate is not trusted.
    const strict = new Outbound({
      allowPrivate: false,
      dnsServer: dns.server,
      connect: net.connect,
    });
    await assert.rejects(strict.fetch("https://secure.test/"), /certificate|UnknownIssuer/);
    assert.deepEqual(net.asked, [`${PUBLIC}:443`, `${PUBLIC}:443`, `${PUBLIC}:443`]);
  } finally {
    await server.shutdown();
    dns.close();
  }
});

Deno.test("outbound - redirects: each hop checked; 303 turns a POST into a GET; credentials stay with their origin", async () => {
  const dns = await FakeDns.start();
  const net = new TestNetwork();
  const seen: { path: string; method: string; body: string; auth: string | null }[] = [];
  const app = new Hono();
  app.all("*", async (c) => {
    seen.push({
      path: `${c.req.header("host")}${c.req.path}`,
      method: c.req.method,
      body: await c.req.text(),
      auth: c.req.header("authorization") ?? null,
    });
    const to = c.req.query("to");
    return to ? c.redirect(to, Number(c.req.query("status") ?? 302) as 302) : c.text("end");
  });
  const service = serveFake(app);
  try {
    const port = Number(new URL(service.url).port);
    dns.set("a.test", PUBLIC);
    dns.set("b.test", PUBLIC);
    dns.set("loop.test", "127.0.0.1");
    net.route(PUBLIC, port, port);
    const outbound = new Outbound({
      allowPrivate: false,
      dnsServer: dns.server,
      connect: net.connect,
    });
    const at = (host: string, path: string) => encodeURIComponent(`http://${host}:${port}${path}`);
    const post = (url: string, maxRedirects?: number) =>
      outbound.fetch(url, {
        method: "POST",
        body: "payload",
        headers: { authorization: "Bearer s3cret", "content-type": "text/plain" },
        maxRedirects,
      });

    let res = await post(`http://a.test:${port}/one?status=307&to=${at("a.test", "/two")}`);
    assert.equal(await res.text(), "end");
    res = await post(`http://a.test:${port}/three?status=303&to=${at("b.test", "/four")}`);
    assert.equal(await res.text(), "end");
    assert.deepEqual(seen, [
      { path: `a.test:${port}/one`, method: "POST", body: "payload", auth: "Bearer s3cret" },
      { path: `a.test:${port}/two`, method: "POST", body: "payload", auth: "Bearer s3cret" },
      { path: `a.test:${port}/three`, method: "POST", body: "payload", auth: "Bearer s3cret" },
      { path: `b.test:${port}/four`, method: "GET", body: "", auth: null },
    ]);
    // A hop to loopback (by name or literal) or to another scheme is refused before connecting.
    const asked = net.asked.length;
    await refusedUrl(post(`http://a.test:${port}/x?to=${at("loop.test", "/")}`));
    await refusedUrl(post(`http://a.test:${port}/x?to=${at("127.0.0.1", "/")}`));
    await refusedUrl(
      post(`http://a.test:${port}/x?to=${encodeURIComponent("file:///etc/passwd")}`),
    );
    assert.deepEqual(net.asked.slice(asked), [
      `${PUBLIC}:${port}`,
      `${PUBLIC}:${port}`,
      `${PUBLIC}:${port}`,
    ]);
    // Past maxRedirects the redirect itself is the answer.
    res = await post(`http://a.test:${port}/y?to=${at("a.test", "/z")}`, 0);
    assert.equal(res.status, 302);
    await res.body?.cancel();
  } finally {
    await service.close();
    dns.close();
  }
});

Deno.test("outbound - the HTTP/1.1 client reads lengths, chunks, gzip, empty answers and a body cut short", async () => {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const gzip = new Uint8Array(
    await new Response(
      new Blob(["zipped text"]).stream().pipeThrough(new CompressionStream("gzip")),
    ).arrayBuffer(),
  );
  const raw: Record<string, Uint8Array> = {
    "/length": new TextEncoder().encode(
      "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhelloIGNORED",
    ),
    "/chunked": new TextEncoder().encode(
      "HTTP/1.1 103 Early Hints\r\nLink: </a>\r\n\r\nHTTP/1.1 200 OK\r\n" +
        "Transfer-Encoding: chunked\r\nX-Multi: a\r\nX-Multi: b\r\n\r\n" +
        "4;ext=1\r\nchun\r\n3\r\nked\r\n0\r\nTrailer: x\r\n\r\n",
    ),
    "/gzip": new Uint8Array([
      ...new TextEncoder().encode(
        `HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\nContent-Length: ${gzip.length}\r\n\r\n`,
      ),
      ...gzip,
    ]),
    "/empty": new TextEncoder().encode("HTTP/1.1 204 No Content\r\n\r\n"),
    "/close": new TextEncoder().encode("HTTP/1.0 200 OK\r\n\r\nuntil the end"),
    "/short": new TextEncoder().encode("HTTP/1.1 200 OK\r\nContent-Length: 50\r\n\r\nnot all"),
    "/garbage": new TextEncoder().encode("SSH-2.0-OpenSSH\r\n\r\n"),
  };
  const requests: string[] = [];
  const serving = (async () => {
    for await (const conn of listener) {
      const buf = new Uint8Array(4096);
      const n = await conn.read(buf);
      const head = new TextDecoder().decode(buf.subarray(0, n ?? 0));
      requests.push(head);
      const path = head.split(" ")[1];
      await conn.write(raw[path]);
      conn.close();
    }
  })();
  try {
    const base = `http://127.0.0.1:${listener.addr.port}`;
    const outbound = new Outbound({ allowPrivate: true });
    assert.equal(await (await outbound.fetch(`${base}/length`)).text(), "hello");
    // INTEGRATIONS_ALLOW_PRIVATE_URLS (an own n8n on this machine): localhost is loopback.
    const local = `http://localhost:${listener.addr.port}/length`;
    assert.equal(await (await outbound.fetch(local)).text(), "hello");
    const chunked = await outbound.fetch(`${base}/chunked`);
    assert.equal(chunked.status, 200);
    assert.equal(chunked.headers.get("x-multi"), "a, b");
    assert.equal(await chunked.text(), "chunked");
    assert.equal(await (await outbound.fetch(`${base}/gzip`)).text(), "zipped text");
    const empty = await outbound.fetch(`${base}/empty`);
    assert.deepEqual([empty.status, await empty.text()], [204, ""]);
    assert.equal(await (await outbound.fetch(`${base}/close`)).text(), "until the end");
    await assert.rejects((await outbound.fetch(`${base}/short`)).text(), /before the body ended/);
    await assert.rejects(outbound.fetch(`${base}/garbage`), /not an HTTP/);
    // A header value with a line break never reaches the wire (no header injection).
    await assert.rejects(
      outbound.fetch(`${base}/length`, { headers: { "x-a": "1\r\nx-injected: 1" } }),
      TypeError,
    );
    assert.match(requests[0], /^GET \/length HTTP\/1\.1\r\nhost: 127\.0\.0\.1:\d+\r\n/);
    assert.match(requests[0], /\r\nconnection: close\r\n/);
    assert.equal(requests.some((r) => r.includes("x-injected")), false);
  } finally {
    listener.close();
    await serving.catch(() => {});
  }
});
