import type { MailMessage } from '../billing/mailer.js';
import { SIGN_IN_TOKEN_TTL_MS } from './sign-in-rules.js';

/** The sign-in email: the link and the code, how long they last, and what to do if it was not you. Plain text. */
export function signInEmail(to: string, link: string, code: string): MailMessage {
  const minutes = Math.round(SIGN_IN_TOKEN_TTL_MS / 60_000);
  return {
    to: [to],
    subject: `Your Brandbase sign-in code: ${code}`,
    text: [
      'Sign in to the Brandbase dashboard with this link:',
      '',
      link,
      '',
      `or type this code on the sign-in page: ${code}`,
      '',
      `The link and the code work once, for ${minutes} minutes. If you did not ask to sign in, ignore this email:`,
      'nobody can sign in without it.',
    ].join('\n'),
  };
}
