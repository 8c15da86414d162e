/**
 * Dashboard sign-in for tests (issue 23): the real flow through the real SMTP test server (test/billing/smtp-sink.ts):
 * ask for the email, read the link out of the message as received, open it, confirm, keep the session cookie.
 * Start the stack with `BRANDBASE_SMTP_URL: smtp.url` so the service mails the sink.
 */
import { randomInt } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { MemberRole } from '../../src/domain/dashboard-accounts.js';
import type { Services } from '../../src/main/services.js';
import type { ReceivedMail, SmtpSink } from '../billing/smtp-sink.js';
import { until } from './until.js';

export const FORM = { 'content-type': 'application/x-www-form-urlencoded' } as const;

/** A urlencoded form body. */
export function form(fields: Record<string, string>): string {
  return new URLSearchParams(fields).toString();
}

/** A client address of its own for each sign-in, so the per-address sign-in limit never trips an unrelated test. */
export function someClientAddress(): string {
  return `10.${randomInt(0, 256)}.${randomInt(0, 256)}.${randomInt(1, 255)}`;
}

/** The text of a received message with quoted-printable soft breaks and escapes undone (nodemailer may use them). */
export function mailText(mail: ReceivedMail): string {
  const [, ...bodyParts] = mail.raw.split(/\r?\n\r?\n/);
  const body = bodyParts.join('\n\n');
  if (!/content-transfer-encoding:\s*quoted-printable/i.test(mail.raw)) return body;
  return body.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

/** The sign-in link and code of a sign-in email. */
export function signInSecrets(mail: ReceivedMail): { link: string; token: string; code: string } {
  const text = mailText(mail);
  const link = /https?:\/\/\S+\/dashboard\/sign-in\/verify\?token=([A-Za-z0-9_-]+)/.exec(text);
  const code = /code[^\d]*(\d{6})/.exec(text);
  if (!link?.[1] || !code?.[1]) throw new Error(`no sign-in link or code in the email: ${text.slice(0, 300)}`);
  return { link: link[0], token: link[1], code: code[1] };
}

/** Asks for a sign-in email and waits for it to reach the sink; returns the message. */
export async function requestSignInEmail(app: FastifyInstance, smtp: SmtpSink, email: string, remoteAddress = someClientAddress()): Promise<ReceivedMail> {
  const before = smtp.messages.filter((m) => m.to.includes(email)).length;
  const asked = await app.inject({ method: 'POST', url: '/dashboard/sign-in', headers: FORM, payload: form({ email }), remoteAddress });
  if (asked.statusCode !== 303) throw new Error(`sign-in request answered ${asked.statusCode}: ${asked.body.slice(0, 200)}`);
  await until(() => smtp.messages.filter((m) => m.to.includes(email)).length > before, `the sign-in email to ${email}`);
  const mails = smtp.messages.filter((m) => m.to.includes(email));
  return mails[mails.length - 1] as ReceivedMail;
}

/** The `name=value` of the session cookie in a response's Set-Cookie headers, or null. */
export function sessionCookieOf(setCookie: string | string[] | undefined): string | null {
  const all = setCookie === undefined ? [] : Array.isArray(setCookie) ? setCookie : [setCookie];
  const found = all.find((c) => c.startsWith('bb_session=') && !/Max-Age=0/i.test(c));
  return found ? (found.split(';')[0] ?? null) : null;
}

/** The `_csrf` value of a page's forms. */
export function csrfTokenOf(pageHtml: string): string {
  const match = /name="_csrf" value="([^"]+)"/.exec(pageHtml);
  if (!match?.[1]) throw new Error('no CSRF field on the page');
  return match[1];
}

/** Signs a user in through the real flow (SMTP sink, the link), returns the session cookie header and CSRF token. */
export async function signInThroughEmail(app: FastifyInstance, smtp: SmtpSink, email: string): Promise<{ cookie: string; csrfToken: string }> {
  const mail = await requestSignInEmail(app, smtp, email);
  const { token } = signInSecrets(mail);
  const confirm = await app.inject({ method: 'GET', url: `/dashboard/sign-in/verify?token=${token}` });
  if (confirm.statusCode !== 200) throw new Error(`the sign-in link page answered ${confirm.statusCode}`);
  const verified = await app.inject({ method: 'POST', url: '/dashboard/sign-in/verify', headers: FORM, payload: form({ token }) });
  const cookie = sessionCookieOf(verified.headers['set-cookie']);
  if (verified.statusCode !== 303 || !cookie) throw new Error(`signing in answered ${verified.statusCode} without a session cookie`);
  const picker = await app.inject({ method: 'GET', url: '/dashboard', headers: { cookie } });
  return { cookie, csrfToken: csrfTokenOf(picker.body) };
}

/** Creates a user who belongs to orgId with role (through the accounts service, as the operator's CLI would). */
export async function addMember(services: Services, orgId: string, email: string, role: MemberRole = 'member'): Promise<void> {
  await services.dashboardAccounts.addMember({ email, orgId, role });
}
