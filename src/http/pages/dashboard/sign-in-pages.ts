/**
 * Sign-in (issue 23, ADR 0043): the email form, the "check your email" page with the code form, the link's
 * confirmation page (opening a link signs nobody in: mail scanners open links; the button posts it), and sign-out.
 * The answer to an email is the same whether it has an account or not.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { SignedIn } from '../../../dashboard-accounts/dashboard-accounts.js';
import { SIGN_IN_TOKEN_TTL_MS, SIGN_IN_WINDOW_MS } from '../../../dashboard-accounts/sign-in-rules.js';
import type { AppDeps } from '../../app-deps.js';
import { html, type Html } from '../html.js';
import {
  checkOrigin,
  checkSessionCsrf,
  cookieHeader,
  currentSession,
  dashboardHeaders,
  dashboardShell,
  readCookie,
  redirectWithNotice,
  SESSION_COOKIE,
  takeNotice,
} from './dashboard-session.js';

/** Remembers the address typed on the sign-in form for the code form (never in a URL: URLs end up in logs). */
const EMAIL_COOKIE = 'bb_signin';

function field(request: FastifyRequest, name: string): string {
  const body = request.body as Record<string, unknown> | undefined;
  const value = body?.[name];
  return typeof value === 'string' ? value : '';
}

function sendPage(reply: FastifyReply, status: number, title: string, body: Html): FastifyReply {
  return dashboardHeaders(reply).code(status).send(dashboardShell(title, body, null));
}

function errorBox(message: string): Html {
  return html`<p class="error" role="alert">${message}</p>`;
}

function emailForm(error: Html | null, notice: string | null, canMail: boolean): Html {
  const unavailable = canMail
    ? null
    : html`<p class="error" role="alert">Sign-in by email is not set up on this server (no SMTP server is configured). The operator can print a one-time sign-in link with <code>brandbase users link &lt;email&gt;</code>.</p>`;
  return html`<h1>Sign in to the dashboard</h1>${notice === null ? '' : html`<p class="notice" role="status">${notice}</p>`}${error}${unavailable}
<p>We email you a sign-in link and a code. There is no password.</p>
<form method="post" action="/dashboard/sign-in"><label for="email">Email address</label><input id="email" name="email" type="email" autocomplete="email" required maxlength="254" size="32"> <button type="submit">Email me a sign-in link</button></form>`;
}

function codeForm(email: string, error: Html | null, notice: string | null = null): Html {
  const minutes = Math.round(SIGN_IN_TOKEN_TTL_MS / 60_000);
  const emailInput =
    email === ''
      ? html`<label for="code-email">Email address</label><input id="code-email" name="email" type="email" autocomplete="email" required maxlength="254" size="32">`
      : html`<input type="hidden" name="email" value="${email}">`;
  return html`<h1>Check your email</h1>${notice === null ? '' : html`<p class="notice" role="status">${notice}</p>`}${error}
<p>If ${email === '' ? 'the address' : html`<strong>${email}</strong>`} has a Brandbase account, we sent it a sign-in link and a 6-digit code. Both work once, for ${minutes} minutes.</p>
<form method="post" action="/dashboard/sign-in/code">${emailInput}<label for="code">Code from the email</label><input id="code" name="code" inputmode="numeric" autocomplete="one-time-code" pattern="[0-9 ]{6,7}" maxlength="7" required size="8"> <button type="submit">Sign in</button></form>
<p><a href="/dashboard/sign-in">Use another address or ask for a new email</a></p>`;
}

/** Shown when the email's limit held back a new email (the same whether the address has an account or not). */
const EMAIL_THROTTLED_NOTICE = `No new email was sent: this address was sent the most sign-in emails we send in ${Math.round(SIGN_IN_WINDOW_MS / 60_000)} minutes. Use the link or code in the newest of them.`;

function tooMany(reply: FastifyReply): FastifyReply {
  const minutes = Math.round(SIGN_IN_WINDOW_MS / 60_000);
  reply.header('retry-after', String(SIGN_IN_WINDOW_MS / 1000));
  return sendPage(reply, 429, 'Too many sign-in attempts', html`<h1>Too many sign-in attempts</h1><p>Wait ${minutes} minutes, then <a href="/dashboard/sign-in">try again</a>. No email was sent.</p>`);
}

/** Starts the session: the new cookie replaces any the browser had, and a live session it had ends (no fixation). */
async function completeSignIn(deps: AppDeps, request: FastifyRequest, reply: FastifyReply, signedIn: SignedIn): Promise<FastifyReply> {
  const previous = await currentSession(deps, request);
  if (previous && previous.session.id !== signedIn.session.id) await deps.dashboard.revokeSession(previous.user.id, previous.session.id);
  const maxAge = Math.floor((signedIn.session.expiresAt.getTime() - signedIn.session.createdAt.getTime()) / 1000);
  reply.header('set-cookie', cookieHeader(deps, SESSION_COOKIE, signedIn.token, maxAge));
  reply.header('set-cookie', cookieHeader(deps, EMAIL_COOKIE, '', 0, '/dashboard/sign-in'));
  return reply.code(303).header('cache-control', 'no-store').redirect('/dashboard', 303);
}

export function registerSignInPages(app: FastifyInstance, deps: AppDeps): void {
  const accounts = deps.dashboard;

  app.get('/dashboard/sign-in', async (request, reply) => {
    if (await currentSession(deps, request)) return reply.code(303).redirect('/dashboard', 303);
    return sendPage(reply, 200, 'Sign in', emailForm(null, takeNotice(deps, request, reply), accounts.canMail));
  });

  app.post('/dashboard/sign-in', async (request, reply) => {
    if (!checkOrigin(deps, request, reply)) return reply;
    const email = field(request, 'email');
    const outcome = await accounts.requestSignIn({ email, clientAddress: request.ip });
    if (outcome === 'rate_limited') return tooMany(reply);
    if (outcome === 'invalid_email') return sendPage(reply, 400, 'Sign in', emailForm(errorBox('That is not an email address. Check it and try again.'), null, accounts.canMail));
    if (outcome === 'no_mailer') return sendPage(reply, 503, 'Sign in', emailForm(null, null, false));
    reply.header('set-cookie', cookieHeader(deps, EMAIL_COOKIE, email.trim().toLowerCase(), SIGN_IN_TOKEN_TTL_MS / 1000, '/dashboard/sign-in'));
    // The email's limit only holds back new emails: the ones sent still sign in (the address's owner is never locked out).
    if (outcome === 'email_throttled') return redirectWithNotice(deps, reply, '/dashboard/sign-in/check', EMAIL_THROTTLED_NOTICE);
    return reply.code(303).header('cache-control', 'no-store').redirect('/dashboard/sign-in/check', 303);
  });

  app.get('/dashboard/sign-in/check', async (request, reply) =>
    sendPage(reply, 200, 'Check your email', codeForm(readCookie(request, EMAIL_COOKIE) ?? '', null, takeNotice(deps, request, reply))),
  );

  app.post('/dashboard/sign-in/code', async (request, reply) => {
    if (!checkOrigin(deps, request, reply)) return reply;
    const email = field(request, 'email');
    const result = await accounts.verifyCode({ email, code: field(request, 'code'), clientAddress: request.ip, userAgent: request.headers['user-agent'] ?? null });
    if (result === 'rate_limited') return tooMany(reply);
    if (result === null) return sendPage(reply, 400, 'Check your email', codeForm(email, errorBox('That code is wrong, used or expired. Check the latest email, or ask for a new one.')));
    return completeSignIn(deps, request, reply, result);
  });

  app.get('/dashboard/sign-in/verify', async (request, reply) => {
    const token = (request.query as Record<string, unknown>)['token'];
    if (typeof token !== 'string' || token === '') return sendPage(reply, 400, 'Sign in', emailForm(errorBox('This sign-in link is incomplete. Ask for a new email.'), null, accounts.canMail));
    const body = html`<h1>Sign in to the dashboard</h1><p>Continue to sign in with the link from your email.</p><form method="post" action="/dashboard/sign-in/verify"><input type="hidden" name="token" value="${token}"><button type="submit">Continue signing in</button></form>`;
    return sendPage(reply, 200, 'Sign in', body);
  });

  app.post('/dashboard/sign-in/verify', async (request, reply) => {
    if (!checkOrigin(deps, request, reply)) return reply;
    const signedIn = await accounts.verifyLink(field(request, 'token'), request.headers['user-agent'] ?? null);
    if (!signedIn) return sendPage(reply, 400, 'Sign in', emailForm(errorBox('This sign-in link was used already or has expired. Ask for a new email.'), null, accounts.canMail));
    return completeSignIn(deps, request, reply, signedIn);
  });

  app.post('/dashboard/sign-out', async (request, reply) => {
    const active = await currentSession(deps, request);
    if (!active) return reply.code(303).redirect('/dashboard/sign-in', 303);
    if (!(await checkSessionCsrf(deps, active, request, reply))) return reply;
    await accounts.revokeSession(active.user.id, active.session.id);
    reply.header('set-cookie', cookieHeader(deps, SESSION_COOKIE, '', 0));
    return redirectWithNotice(deps, reply, '/dashboard/sign-in', 'You are signed out.');
  });
}
