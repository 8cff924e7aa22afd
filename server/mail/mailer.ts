import { createTransport } from 'nodemailer';
import type { MailConfig, SmtpSettings } from '../config.ts';

/** One plain-text mail. `text` may hold a verification code: never log it. */
export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
}

/**
 * Where the server's mail goes. The pluggable transport of docs/SECURITY.md: SMTP through
 * nodemailer when SMTP_HOST is set, otherwise nothing leaves the process (development reads the
 * outbox table instead; production then refuses to claim a code was sent: server/routes/userAuth.ts).
 */
export interface Mailer {
  /** 'smtp' or 'none': for the start-up banner and tests. */
  readonly kind: 'smtp' | 'none';
  /** Resolves once the transport accepted the mail; rejects with an error that holds no mail text. */
  send(mail: OutgoingMail): Promise<void>;
  close(): void;
}

/** A mailer that delivers nothing (no SMTP configured). */
export function createNullMailer(): Mailer {
  return { kind: 'none', send: async () => {}, close: () => {} };
}

/**
 * SMTP through nodemailer (STARTTLS when offered, TLS from the start with `secure`). Nodemailer's
 * own logger stays off: with `logger`/`debug` it would print the message body, and so the code.
 */
export function createSmtpMailer(smtp: SmtpSettings, from: string): Mailer {
  const transport = createTransport({
    host: smtp.host,
    port: smtp.port,
    secure: smtp.secure,
    auth: smtp.user !== undefined ? { user: smtp.user, pass: smtp.pass ?? '' } : undefined,
    tls: { rejectUnauthorized: smtp.rejectUnauthorized },
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 20_000,
    logger: false,
    debug: false,
  });
  return {
    kind: 'smtp',
    async send(mail) {
      try {
        await transport.sendMail({ from, to: mail.to, subject: mail.subject, text: mail.text });
      } catch (err) {
        // NOTE: rethrow only the SMTP reply code and class, never the envelope or the message text.
        const e = err as { code?: unknown; responseCode?: unknown };
        // eslint-disable-next-line preserve-caught-error -- the cause may quote the message (and its code)
        throw new Error(`SMTP delivery failed (${String(e.code ?? 'error')}${e.responseCode !== undefined ? ` ${String(e.responseCode)}` : ''})`);
      }
    },
    close: () => transport.close(),
  };
}

/** The mailer the config asks for. */
export function createMailer(mail: MailConfig): Mailer {
  return mail.smtp ? createSmtpMailer(mail.smtp, mail.from) : createNullMailer();
}
