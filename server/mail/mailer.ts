import type { Transporter } from "nodemailer";
import type { Config } from "../config.ts";

export type OutgoingMail = { to: string; subject: string; text: string };

/** Sends mail; the one implementation is SMTP through nodemailer (tests use a fake SMTP server). */
export interface Mailer {
  send(mail: OutgoingMail): Promise<void>;
  close(): void;
}

/** An SMTP mailer for SMTP_URL, or undefined when mail is not configured. */
export function createMailer(config: Pick<Config, "smtpUrl" | "smtpFrom">): Mailer | undefined {
  if (!config.smtpUrl) return undefined;
  const url = config.smtpUrl;
  // nodemailer loads with the first mail, not at start (issue 33: most processes send none).
  let transport: Promise<Transporter> | undefined;
  const open = () =>
    transport ??= import("nodemailer").then(({ default: nodemailer }) =>
      // Bounded: a mail server that hangs must not hold a request or a job forever.
      nodemailer.createTransport({
        url,
        connectionTimeout: 10_000,
        greetingTimeout: 10_000,
        socketTimeout: 20_000,
      })
    );
  return {
    async send(mail) {
      await (await open()).sendMail({ from: config.smtpFrom, ...mail });
    },
    close() {
      transport?.then((t) => t.close()).catch(() => {});
    },
  };
}
