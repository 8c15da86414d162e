import nodemailer from 'nodemailer';

/** A plain-text email. */
export interface MailMessage {
  to: string[];
  subject: string;
  text: string;
}

/** Sends emails (usage warnings, webhook notices, dashboard sign-in links). */
export interface Mailer {
  /**
   * Whether messages go anywhere. False only for `noMailer` (no SMTP server configured): callers then say so (a log
   * line, or the sign-in page's 503) instead of sending.
   */
  readonly sends: boolean;
  send(msg: MailMessage): Promise<void>;
}

/** The mailer of a server without SMTP (BRANDBASE_SMTP_URL empty): sends nothing; `send` fails if called anyway. */
export const noMailer: Mailer = {
  sends: false,
  send: () => Promise.reject(new Error('no mail server configured (BRANDBASE_SMTP_URL is empty)')),
};

/**
 * A Mailer over SMTP (nodemailer). `url` is an SMTP URL such as `smtp://user:pass@mail.example.com:587` or
 * `smtps://mail.example.com:465` (nodemailer's connection URL syntax, options as query parameters); `from` is
 * the sender, e.g. `Brandbase <billing@example.com>`. One connection per message: warnings are rare.
 */
export function createSmtpMailer(url: string, from: string): Mailer {
  const transport = nodemailer.createTransport(url);
  return {
    sends: true,
    async send(msg) {
      if (msg.to.length === 0) throw new Error('no recipients');
      await transport.sendMail({ from, to: msg.to, subject: msg.subject, text: msg.text });
    },
  };
}
