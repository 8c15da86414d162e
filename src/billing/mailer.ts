import nodemailer from 'nodemailer';

/** A plain-text email. */
export interface MailMessage {
  to: string[];
  subject: string;
  text: string;
}

/** Sends billing emails (usage warnings). */
export interface Mailer {
  send(msg: MailMessage): Promise<void>;
}

/**
 * A Mailer over SMTP (nodemailer). `url` is an SMTP URL such as `smtp://user:pass@mail.example.com:587` or
 * `smtps://mail.example.com:465` (nodemailer's connection URL syntax, options as query parameters); `from` is
 * the sender, e.g. `Brandbase <billing@example.com>`. One connection per message: warnings are rare.
 */
export function createSmtpMailer(url: string, from: string): Mailer {
  const transport = nodemailer.createTransport(url);
  return {
    async send(msg) {
      if (msg.to.length === 0) throw new Error('no recipients');
      await transport.sendMail({ from, to: msg.to, subject: msg.subject, text: msg.text });
    },
  };
}
