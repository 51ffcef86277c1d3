/**
 * A fake SMTP server (RFC 5321's plain dialogue, enough for a real client such as nodemailer):
 * a TCP listener on port 0 that accepts every message and keeps it, with the AUTH PLAIN
 * credentials it was given. No TLS (it does not advertise STARTTLS).
 */
export type ReceivedMail = {
  from: string;
  to: string[];
  /** The message as sent (headers and body), dot-unstuffing undone. */
  data: string;
  /** `user:password` of AUTH PLAIN, when the client authenticated. */
  auth?: string;
};

export type FakeSmtp = {
  port: number;
  url: (user?: string, password?: string) => string;
  mails: ReceivedMail[];
  /** Resolves once `count` mails have arrived (bounded by the test's own timeout). */
  received(count: number): Promise<ReceivedMail[]>;
  close(): Promise<void>;
};

export function startFakeSmtp(): FakeSmtp {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const mails: ReceivedMail[] = [];
  const waiters: { count: number; resolve: () => void }[] = [];
  const connections = new Set<Deno.Conn>();
  const handlers: Promise<void>[] = [];

  const delivered = (mail: ReceivedMail) => {
    mails.push(mail);
    for (const waiter of [...waiters]) {
      if (mails.length >= waiter.count) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve();
      }
    }
  };

  async function serveConnection(conn: Deno.Conn) {
    connections.add(conn);
    const encoder = new TextEncoder();
    const decoder = new TextDecoder();
    const reply = (line: string) => conn.write(encoder.encode(`${line}\r\n`));
    let buffer = "";
    let mail: ReceivedMail = { from: "", to: [], data: "" };
    let inData = false;
    let auth: string | undefined;
    try {
      await reply("220 fake.smtp.test ESMTP");
      const chunk = new Uint8Array(64 * 1024);
      while (true) {
        const n = await conn.read(chunk);
        if (n === null) return;
        buffer += decoder.decode(chunk.subarray(0, n), { stream: true });
        while (true) {
          if (inData) {
            const end = buffer.indexOf("\r\n.\r\n");
            if (end < 0) break;
            const body = buffer.slice(0, end).split("\r\n").map((line) =>
              line.startsWith("..") ? line.slice(1) : line
            ).join("\r\n");
            buffer = buffer.slice(end + 5);
            inData = false;
            delivered({ ...mail, data: body, auth });
            mail = { from: "", to: [], data: "" };
            await reply("250 2.0.0 queued");
            continue;
          }
          const eol = buffer.indexOf("\r\n");
          if (eol < 0) break;
          const line = buffer.slice(0, eol);
          buffer = buffer.slice(eol + 2);
          const verb = line.slice(0, 4).toUpperCase();
          if (verb === "EHLO") {
            await reply("250-fake.smtp.test");
            await reply("250-AUTH PLAIN");
            await reply("250 8BITMIME");
          } else if (verb === "HELO") await reply("250 fake.smtp.test");
          else if (verb === "AUTH") {
            const [, mechanism, initial] = line.split(" ");
            if (mechanism?.toUpperCase() !== "PLAIN" || !initial) {
              await reply("504 5.5.4 only AUTH PLAIN with an initial response");
              continue;
            }
            const [, user, password] = atob(initial).split("\0");
            auth = `${user}:${password}`;
            await reply("235 2.7.0 accepted");
          } else if (verb === "MAIL") {
            mail.from = /<([^>]*)>/.exec(line)?.[1] ?? "";
            await reply("250 2.1.0 ok");
          } else if (verb === "RCPT") {
            mail.to.push(/<([^>]*)>/.exec(line)?.[1] ?? "");
            await reply("250 2.1.5 ok");
          } else if (verb === "DATA") {
            inData = true;
            await reply("354 end with <CRLF>.<CRLF>");
          } else if (verb === "RSET") {
            mail = { from: "", to: [], data: "" };
            await reply("250 ok");
          } else if (verb === "NOOP") await reply("250 ok");
          else if (verb === "QUIT") {
            await reply("221 bye");
            return;
          } else await reply("502 5.5.2 not implemented");
        }
      }
    } catch {
      // the client went away
    } finally {
      connections.delete(conn);
      try {
        conn.close();
      } catch {
        // already closed
      }
    }
  }

  const accepting = (async () => {
    try {
      for await (const conn of listener) handlers.push(serveConnection(conn));
    } catch {
      // listener closed
    }
  })();

  const port = (listener.addr as Deno.NetAddr).port;
  return {
    port,
    url: (user, password) =>
      user ? `smtp://${user}:${password}@127.0.0.1:${port}` : `smtp://127.0.0.1:${port}`,
    mails,
    received(count) {
      if (mails.length >= count) return Promise.resolve(mails.slice(0, count));
      return new Promise((resolve) =>
        waiters.push({ count, resolve: () => resolve(mails.slice(0, count)) })
      );
    },
    async close() {
      listener.close();
      for (const conn of connections) {
        try {
          conn.close();
        } catch {
          // already closed
        }
      }
      await accepting;
      await Promise.all(handlers);
    },
  };
}

/** The text of a quoted-printable part (nodemailer's default for text), soft breaks joined. */
export function decodeQuotedPrintable(text: string): string {
  const bytes = text.replace(/=\r\n/g, "").replace(
    /=([0-9A-F]{2})/g,
    (_, hex) => String.fromCharCode(parseInt(hex, 16)),
  );
  return new TextDecoder().decode(Uint8Array.from(bytes, (c) => c.charCodeAt(0)));
}
