import nodemailer from "nodemailer";
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
  // Bounded: a mail server that hangs must not hold a request or a job forever.
  const transport = nodemailer.createTransport({
    url: config.smtpUrl,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 20_000,
  });
  return {
    async send(mail) {
      await transport.sendMail({ from: config.smtpFrom, ...mail });
    },
    close() {
      transport.close();
    },
  };
}
