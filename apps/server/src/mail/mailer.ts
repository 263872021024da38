import { randomBytes } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import nodemailer from "nodemailer";
import type { ServerConfig } from "../config";

/** What a mail is, as the log names it (its subject can hold a sign-in code or a person's name). */
export type MailKind = "password-reset" | "password-set" | "demo-code" | "contact" | "import-failed";

export interface Mail {
  to: string;
  subject: string;
  text: string;
  replyTo?: string;
  kind: MailKind;
  /** The user the mail is for, when it is one of the organisation's: the log names them by id. */
  userId?: string;
}

/**
 * A recipient as the log writes it: the first character of the local part and the domain
 * (`j***@example.com`), enough to tell a domain's bounces apart, never the whole address
 * (docs/security.md, "Logs").
 */
export function maskAddress(address: string): string {
  const at = address.lastIndexOf("@");
  if (at <= 0) return "***";
  return `${address.slice(0, 1)}***${address.slice(at)}`;
}

/** The log's details of a mail: its kind, its user's id and its masked recipient; never the subject or body. */
function logged(mail: Mail): Record<string, unknown> {
  return { mail: mail.kind, ...(mail.userId ? { user: mail.userId } : {}), to: maskAddress(mail.to) };
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
        const { to, subject, text, replyTo } = mail;
        await transport.sendMail({
          from: config.mailFrom,
          to,
          subject,
          text,
          ...(replyTo ? { replyTo } : {}),
        });
        log.info(logged(mail), "mail sent");
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
      log.info({ ...logged(mail), file }, "mail written to the outbox (no SMTP_URL)");
    },
    close: () => {},
  };
}
