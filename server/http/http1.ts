/**
 * One HTTP/1.1 exchange over a connection we opened ourselves (server/http/outbound_fetch.ts):
 * `fetch` resolves the name again when it connects, so a guard that checked the addresses before
 * could be answered differently the second time (DNS rebinding). Here the caller connects to the
 * address it checked and this file only speaks the protocol: one request with
 * `Connection: close`, the answer's head, and a body stream (Content-Length, chunked or until the
 * connection ends; gzip and deflate decoded). The connection is closed when the body is read,
 * cancelled, or the signal aborts.
 */
export type Http1Request = {
  method: string;
  url: URL;
  headers: Headers;
  body: Uint8Array | null;
};

const MAX_HEAD_BYTES = 64 * 1024;
const MAX_HEADERS = 200;
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
// Set here from the URL and the body, never by the caller.
const OURS = new Set(["host", "connection", "content-length", "transfer-encoding", "keep-alive"]);

export class HttpProtocolError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "HttpProtocolError";
  }
}

class Reader {
  #buffer = new Uint8Array(0);
  constructor(readonly conn: Deno.Conn) {}

  async #fill(): Promise<boolean> {
    const chunk = new Uint8Array(16 * 1024);
    const n = await this.conn.read(chunk);
    if (n === null) return false;
    const joined = new Uint8Array(this.#buffer.length + n);
    joined.set(this.#buffer);
    joined.set(chunk.subarray(0, n), this.#buffer.length);
    this.#buffer = joined;
    return true;
  }

  #take(n: number): Uint8Array<ArrayBuffer> {
    const out = this.#buffer.slice(0, n);
    this.#buffer = this.#buffer.subarray(n);
    return out;
  }

  /** One line without its CRLF (latin1, as HTTP heads are). */
  async line(max: number): Promise<string> {
    while (true) {
      const at = this.#buffer.indexOf(10);
      if (at >= 0) {
        const bytes = this.#take(at + 1);
        const end = bytes.length >= 2 && bytes[bytes.length - 2] === 13 ? 2 : 1;
        return String.fromCharCode(...bytes.subarray(0, bytes.length - end));
      }
      if (this.#buffer.length > max) throw new HttpProtocolError("answer head too large");
      if (!await this.#fill()) throw new HttpProtocolError("connection closed mid-answer");
    }
  }

  /** Up to `max` bytes (what is buffered, or one read); null at the end of the connection. */
  async some(max: number): Promise<Uint8Array<ArrayBuffer> | null> {
    if (this.#buffer.length === 0 && !await this.#fill()) return null;
    return this.#take(Math.min(max, this.#buffer.length));
  }
}

async function writeAll(conn: Deno.Conn, bytes: Uint8Array) {
  let at = 0;
  while (at < bytes.length) at += await conn.write(bytes.subarray(at));
}

function requestHead(req: Http1Request): string {
  if (!TOKEN.test(req.method)) throw new TypeError(`bad method ${req.method}`);
  const lines = [`${req.method} ${req.url.pathname || "/"}${req.url.search} HTTP/1.1`];
  lines.push(`host: ${req.url.host}`);
  if (!req.headers.has("user-agent")) lines.push("user-agent: Balcao/1");
  if (!req.headers.has("accept")) lines.push("accept: */*");
  if (!req.headers.has("accept-encoding")) lines.push("accept-encoding: gzip, deflate");
  lines.push("connection: close");
  if (req.body !== null || ["POST", "PUT", "PATCH"].includes(req.method)) {
    lines.push(`content-length: ${req.body?.length ?? 0}`);
  }
  // Headers has already refused names and values with CR or LF (no header injection).
  for (const [name, value] of req.headers) if (!OURS.has(name)) lines.push(`${name}: ${value}`);
  return lines.join("\r\n") + "\r\n\r\n";
}

async function readHead(reader: Reader) {
  let status = 0;
  let statusText = "";
  // 1xx answers (103 Early Hints, an unasked 100) come before the real one: skipped.
  while (status < 200) {
    const line = await reader.line(MAX_HEAD_BYTES);
    const m = /^HTTP\/1\.[01] (\d{3})(?: (.*))?$/.exec(line);
    if (!m) throw new HttpProtocolError("not an HTTP/1.x answer");
    status = Number(m[1]);
    statusText = m[2] ?? "";
    const headers = new Headers();
    let count = 0;
    let size = line.length;
    while (true) {
      const header = await reader.line(MAX_HEAD_BYTES);
      if (header === "") break;
      size += header.length;
      if (++count > MAX_HEADERS || size > MAX_HEAD_BYTES) {
        throw new HttpProtocolError("answer head too large");
      }
      const colon = header.indexOf(":");
      const name = header.slice(0, colon);
      if (colon <= 0 || !TOKEN.test(name)) throw new HttpProtocolError("bad header line");
      try {
        headers.append(name, header.slice(colon + 1).trim());
      } catch {
        throw new HttpProtocolError("bad header value");
      }
    }
    if (status >= 200) return { status, statusText, headers };
    if (status === 101) throw new HttpProtocolError("unexpected protocol switch");
  }
  throw new HttpProtocolError("no answer");
}

type Framing = { kind: "none" } | { kind: "length"; left: number } | { kind: "chunked" } | {
  kind: "close";
};

function framingOf(method: string, status: number, headers: Headers): Framing {
  if (method === "HEAD" || status === 204 || status === 304) return { kind: "none" };
  const te = headers.get("transfer-encoding");
  if (te) {
    if (te.toLowerCase().split(",").pop()!.trim() !== "chunked") {
      throw new HttpProtocolError(`unsupported transfer-encoding ${te}`);
    }
    return { kind: "chunked" };
  }
  const length = headers.get("content-length");
  if (length !== null) {
    // Repeated equal values ("10, 10") are allowed by RFC 9110; different ones are not.
    const values = new Set(length.split(",").map((v) => v.trim()));
    const [only] = values;
    if (values.size !== 1 || !/^\d{1,15}$/.test(only)) {
      throw new HttpProtocolError("bad content-length");
    }
    return { kind: "length", left: Number(only) };
  }
  return { kind: "close" };
}

function bodyStream(
  reader: Reader,
  framing: Framing,
  close: () => void,
  signal?: AbortSignal,
) {
  let chunkLeft = 0;
  let chunkedDone = false;
  const ended = () => new HttpProtocolError("connection closed before the body ended");
  return new ReadableStream<Uint8Array<ArrayBuffer>>({
    async pull(controller) {
      try {
        if (framing.kind === "length") {
          if (framing.left === 0) return finish();
          const bytes = await reader.some(framing.left);
          if (bytes === null) throw ended();
          framing.left -= bytes.length;
          controller.enqueue(bytes);
        } else if (framing.kind === "close") {
          const bytes = await reader.some(64 * 1024);
          if (bytes === null) return finish();
          controller.enqueue(bytes);
        } else {
          if (chunkedDone) return finish();
          if (chunkLeft === 0) {
            const sizeLine = (await reader.line(1024)).split(";")[0].trim();
            if (!/^[0-9a-fA-F]{1,12}$/.test(sizeLine)) throw new HttpProtocolError("bad chunk");
            chunkLeft = parseInt(sizeLine, 16);
            if (chunkLeft === 0) {
              // Trailers, if any, end with an empty line; they are not kept.
              while (await reader.line(MAX_HEAD_BYTES) !== "");
              chunkedDone = true;
              return finish();
            }
          }
          const bytes = await reader.some(chunkLeft);
          if (bytes === null) throw ended();
          chunkLeft -= bytes.length;
          if (chunkLeft === 0 && await reader.line(2) !== "") {
            throw new HttpProtocolError("bad chunk");
          }
          controller.enqueue(bytes);
        }
      } catch (error) {
        close();
        controller.error(signal?.aborted ? signal.reason : error);
      }
      function finish() {
        close();
        controller.close();
      }
    },
    cancel() {
      close();
    },
  });
}

/** Sends `req` on `conn` and resolves with the answer; the body streams from the connection. */
export async function http1Exchange(
  conn: Deno.Conn,
  req: Http1Request,
  signal?: AbortSignal,
): Promise<Response> {
  let closed = false;
  const close = () => {
    if (closed) return;
    closed = true;
    signal?.removeEventListener("abort", close);
    try {
      conn.close();
    } catch {
      // Already closed by the other side.
    }
  };
  // Closing the connection ends a pending read or write: the abort's reason is what surfaces.
  signal?.addEventListener("abort", close, { once: true });
  try {
    signal?.throwIfAborted();
    const head = new TextEncoder().encode(requestHead(req));
    const body = req.body ?? new Uint8Array();
    const message = new Uint8Array(head.length + body.length);
    message.set(head);
    message.set(body, head.length);
    await writeAll(conn, message);
    const reader = new Reader(conn);
    const { status, statusText, headers } = await readHead(reader);
    if (status > 599) throw new HttpProtocolError(`bad status ${status}`);
    const framing = framingOf(req.method, status, headers);
    if (framing.kind === "none" || (framing.kind === "length" && framing.left === 0)) {
      close();
      return new Response(null, { status, statusText, headers });
    }
    let stream = bodyStream(reader, framing, close, signal);
    const encoding = headers.get("content-encoding")?.trim().toLowerCase();
    if (encoding === "gzip" || encoding === "x-gzip" || encoding === "deflate") {
      const format = encoding === "deflate" ? "deflate" : "gzip";
      stream = stream.pipeThrough(
        new DecompressionStream(format) as unknown as TransformStream<
          Uint8Array<ArrayBuffer>,
          Uint8Array<ArrayBuffer>
        >,
      );
    }
    return new Response(stream, { status, statusText, headers });
  } catch (error) {
    close();
    if (signal?.aborted) throw signal.reason;
    throw error;
  }
}
