import { randomBytes } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import nodemailer from "nodemailer";
import type { ServerConfig } from "../config";

export interface Mail {
  to: string;
  subject: string;
  text: string;
  replyTo?: string;
}

/** Sends the product's e-mail: over SMTP when `SMTP_URL` is set, else into `dataDir/outbox/`. */
export interface Mailer {
  send(mail: Mail): Promise<void>;
  close(): void;
}

interface MailLog {
  info(details: Record<string, unknown>, message: string): void;
}

export function createMailer(
  config: Pick<ServerConfig, "smtpUrl" | "mailFrom" | "dataDir">,
  log: MailLog,
): Mailer {
  if (config.smtpUrl) {
    const transport = nodemailer.createTransport(config.smtpUrl);
    return {
      async send(mail) {
        await transport.sendMail({ from: config.mailFrom, ...mail });
        log.info({ to: mail.to, subject: mail.subject }, "mail sent");
      },
      close: () => transport.close(),
    };
  }
  const outbox = join(config.dataDir, "outbox");
  return {
    async send(mail) {
      mkdirSync(outbox, { recursive: true, mode: 0o700 });
      const file = join(
        outbox,
        `${new Date().toISOString().replace(/[:.]/g, "-")}-${randomBytes(4).toString("hex")}.eml`,
      );
      const headers = [
        `From: ${config.mailFrom}`,
        `To: ${mail.to}`,
        ...(mail.replyTo ? [`Reply-To: ${mail.replyTo}`] : []),
        `Subject: ${mail.subject}`,
        "Content-Type: text/plain; charset=utf-8",
      ];
      writeFileSync(file, `${headers.join("\r\n")}\r\n\r\n${mail.text}\r\n`, { mode: 0o600 });
      // The body can hold a sign-in code or a reset link: the log names the file, not the body.
      log.info({ to: mail.to, subject: mail.subject, file }, "mail written to the outbox (no SMTP_URL)");
    },
    close: () => {},
  };
}
