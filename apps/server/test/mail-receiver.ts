import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";
import { vi } from "vitest";

export interface ReceivedMail {
  to: string[];
  subject: string;
  text: string;
}

function decodeBody(headers: string, body: string): string {
  if (/content-transfer-encoding:\s*quoted-printable/i.test(headers))
    return body
      .replace(/=\r?\n/g, "")
      .replace(/=([0-9A-F]{2})/gi, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
  if (/content-transfer-encoding:\s*base64/i.test(headers))
    return Buffer.from(body.replace(/\s/g, ""), "base64").toString("utf8");
  return body;
}

/** A real SMTP server on a free port that keeps what it receives, for tests that read mail. */
export class MailReceiver {
  readonly mails: ReceivedMail[] = [];
  private server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    onData: (stream, session, callback) => {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        const raw = Buffer.concat(chunks).toString("utf8");
        const split = raw.indexOf("\r\n\r\n");
        const headers = raw.slice(0, split);
        const subject = /^subject:\s*(.*)$/im.exec(headers)?.[1]?.trim() ?? "";
        this.mails.push({
          to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()),
          subject,
          text: decodeBody(headers, raw.slice(split + 4)),
        });
        callback();
      });
    },
  });
  port = 0;

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, "127.0.0.1", resolve));
    this.port = (this.server.server.address() as AddressInfo).port;
    return this;
  }

  get url() {
    return `smtp://127.0.0.1:${this.port}`;
  }

  /**
   * Waits for a mail to `to` (and matching `predicate`), without sleeping, and takes it from the
   * list: each mail is read once (the PGlite and PostgreSQL runs of a suite share the receiver).
   */
  async waitFor(to: string, predicate: (mail: ReceivedMail) => boolean = () => true) {
    return vi.waitFor(
      () => {
        const index = this.mails.findIndex((m) => m.to.includes(to.toLowerCase()) && predicate(m));
        if (index < 0) throw new Error(`no mail to ${to} yet`);
        return this.mails.splice(index, 1)[0]!;
      },
      { timeout: 5000, interval: 20 },
    );
  }

  close() {
    return new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
