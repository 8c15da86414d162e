/**
 * The dashboard's session handling for every page (issue 23, ADR 0043): the session cookie (a JWT naming a session
 * row), the membership check of the organization a page belongs to, CSRF (a synchronizer token bound to the session
 * plus an Origin check), one-time notices after a post/redirect/get, and the layout with the organization nav.
 */
import { timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ActiveSession } from '../../../dashboard-accounts/dashboard-accounts.js';
import type { AppDeps } from '../../app-deps.js';
import { html, page, PAGE_SECURITY_HEADERS, type Html } from '../html.js';

export interface DashboardSession {
  sessionId: string;
  userId: string;
  email: string;
  /** The organization of the page being served (membership checked). */
  orgId: string;
  /** Its name, for the page heading and the nav. */
  orgName: string;
  role: 'owner' | 'member';
  /** For hidden form fields (csrfField). */
  csrfToken: string;
  /** A one-time notice left by the previous POST (redirectWithNotice), shown once by dashboardPage. */
  notice: string | null;
  /** The public URL's origin, which a form post's Origin header must match when one is sent. */
  origin: string;
}

export type DashboardSection = 'overview' | 'keys' | 'client-ids' | 'usage' | 'billing' | 'webhooks' | 'payments' | 'corrections';

/** The session cookie. HttpOnly, SameSite=Lax, Path=/, and Secure when the public URL is https. */
export const SESSION_COOKIE = 'bb_session';
/** The one-time notice of a post/redirect/get (plain text, escaped when shown). */
export const NOTICE_COOKIE = 'bb_notice';

const SECTIONS: readonly { id: DashboardSection; label: string; path: string }[] = [
  { id: 'overview', label: 'Overview', path: '' },
  { id: 'keys', label: 'API keys', path: '/keys' },
  { id: 'client-ids', label: 'Client IDs', path: '/client-ids' },
  { id: 'usage', label: 'Usage', path: '/usage' },
  { id: 'billing', label: 'Billing', path: '/billing' },
  { id: 'webhooks', label: 'Webhooks', path: '/webhooks' },
  { id: 'payments', label: 'Payments', path: '/payments' },
  { id: 'corrections', label: 'Corrections', path: '/corrections' },
];

/** Reads one cookie from the Cookie header (no cookie library: one name, no attributes). */
export function readCookie(request: FastifyRequest, name: string): string | null {
  const header = request.headers.cookie;
  if (!header) return null;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) {
      try {
        return decodeURIComponent(part.slice(eq + 1).trim());
      } catch {
        return null;
      }
    }
  }
  return null;
}

function secure(deps: AppDeps): boolean {
  return deps.publicUrl.startsWith('https:');
}

/** A Set-Cookie value with the dashboard's flags; `maxAgeSeconds` 0 deletes the cookie. */
export function cookieHeader(deps: AppDeps, name: string, value: string, maxAgeSeconds: number, path = '/'): string {
  return `${name}=${encodeURIComponent(value)}; Path=${path}; Max-Age=${maxAgeSeconds}; HttpOnly; SameSite=Lax${secure(deps) ? '; Secure' : ''}`;
}

/** Headers of every dashboard answer: the page security headers, and never cached (pages show account data). */
export function dashboardHeaders(reply: FastifyReply): FastifyReply {
  return reply.headers({ ...PAGE_SECURITY_HEADERS, 'cache-control': 'no-store' });
}

/** The live session of the request's cookie, or null. */
export async function currentSession(deps: AppDeps, request: FastifyRequest): Promise<ActiveSession | null> {
  const token = readCookie(request, SESSION_COOKIE);
  if (!token) return null;
  return deps.credentials.cookieSession(token);
}

/** Takes the one-time notice (and deletes its cookie). */
export function takeNotice(deps: AppDeps, request: FastifyRequest, reply: FastifyReply): string | null {
  const notice = readCookie(request, NOTICE_COOKIE);
  if (notice === null) return null;
  reply.header('set-cookie', cookieHeader(deps, NOTICE_COOKIE, '', 0, '/dashboard'));
  return notice.slice(0, 300);
}

/** Post/redirect/get: a 303 to `location` with a one-time notice shown by the next page. */
export function redirectWithNotice(deps: AppDeps, reply: FastifyReply, location: string, notice: string): FastifyReply {
  reply.header('set-cookie', cookieHeader(deps, NOTICE_COOKIE, notice, 60, '/dashboard'));
  return reply.code(303).header('cache-control', 'no-store').redirect(location, 303);
}

/** The 404 page of the dashboard (an organization that is not the user's looks exactly like a missing one). */
export function sendNotFound(reply: FastifyReply): FastifyReply {
  const body = html`<h1>Not found</h1><p>There is no such page. <a href="/dashboard">Your organizations</a></p>`;
  return dashboardHeaders(reply).code(404).send(page({ title: 'Not found', body }));
}

/** Any dashboard page: the signed-in user's session (no organization), or a redirect to the sign-in page and null. */
export async function requireSession(deps: AppDeps, request: FastifyRequest, reply: FastifyReply): Promise<ActiveSession | null> {
  const active = await currentSession(deps, request);
  if (active) return active;
  await reply.code(303).header('cache-control', 'no-store').redirect('/dashboard/sign-in', 303);
  return null;
}

/**
 * Reads and verifies the session cookie and the membership of `orgId`. On no/invalid session it sends a redirect to
 * /dashboard/sign-in and returns null; on a non-member org it sends the 404 page and returns null.
 */
export async function requireOrgSession(deps: AppDeps, request: FastifyRequest, reply: FastifyReply, orgId: string): Promise<DashboardSession | null> {
  const active = await requireSession(deps, request, reply);
  if (!active) return null;
  const org = (await deps.dashboard.organizationsOf(active.user.id)).find((o) => o.id === orgId);
  if (!org) {
    await sendNotFound(reply);
    return null;
  }
  return {
    sessionId: active.session.id,
    userId: active.user.id,
    email: active.user.email,
    orgId,
    orgName: org.name,
    role: org.role,
    csrfToken: await deps.dashboard.csrfToken(active.session.id),
    notice: takeNotice(deps, request, reply),
    origin: publicOrigin(deps),
  };
}

/** The origin pages are served from (the public URL's), which a form post's Origin header must match when sent. */
function publicOrigin(deps: AppDeps): string {
  return new URL(deps.publicUrl).origin;
}

function sameOrigin(deps: AppDeps, request: FastifyRequest): boolean {
  const origin = request.headers.origin;
  return origin === undefined || origin === publicOrigin(deps);
}

function csrfRefused(reply: FastifyReply): false {
  const body = html`<h1>Refused</h1><p>This form was not sent from this site's own page, or the page was too old. Go back, reload the page and try again.</p>`;
  void dashboardHeaders(reply).code(403).send(page({ title: 'Refused', body }));
  return false;
}

/** For sign-in forms (no session yet): the Origin check alone; sends 403 and returns false on failure. */
export function checkOrigin(deps: AppDeps, request: FastifyRequest, reply: FastifyReply): boolean {
  return sameOrigin(deps, request) || csrfRefused(reply);
}

/**
 * For POST handlers: verifies the CSRF token field `_csrf` (and the Origin header); sends 403 and returns false on
 * failure. The token is a MAC of the session id (session.csrfToken), compared in constant time.
 */
export function checkCsrf(session: Pick<DashboardSession, 'csrfToken' | 'origin'>, request: FastifyRequest, reply: FastifyReply): boolean {
  const body = request.body as Record<string, unknown> | undefined;
  const sent = Buffer.from(body && typeof body['_csrf'] === 'string' ? body['_csrf'] : '');
  const expected = Buffer.from(session.csrfToken);
  const tokenOk = sent.length === expected.length && timingSafeEqual(sent, expected);
  const origin = request.headers.origin;
  return (tokenOk && (origin === undefined || origin === session.origin)) || csrfRefused(reply);
}

/** checkCsrf for pages outside an organization (the org picker, sessions, sign-out): the same token and Origin rule. */
export async function checkSessionCsrf(deps: AppDeps, active: ActiveSession, request: FastifyRequest, reply: FastifyReply): Promise<boolean> {
  const csrfToken = await deps.dashboard.csrfToken(active.session.id);
  return checkCsrf({ csrfToken, origin: publicOrigin(deps) }, request, reply);
}

export function csrfField(session: DashboardSession): Html {
  return html`<input type="hidden" name="_csrf" value="${session.csrfToken}">`;
}

/** The sign-out button (a POST with the CSRF token, in the top bar of every dashboard page). */
export function signOutForm(csrfToken: string): Html {
  return html`<form method="post" action="/dashboard/sign-out" class="signout"><input type="hidden" name="_csrf" value="${csrfToken}"><button type="submit" class="secondary">Sign out</button></form>`;
}

const DASHBOARD_STYLE = [
  '.orgnav{display:flex;flex-wrap:wrap;gap:.25rem .5rem;margin:0 0 1rem;padding:0;list-style:none;border-bottom:1px solid var(--line)}',
  '.orgnav a{display:inline-block;padding:.4rem .6rem;text-decoration:none;border-bottom:3px solid transparent}',
  '.orgnav a[aria-current=page]{border-bottom-color:var(--accent);font-weight:600;color:var(--fg)}',
  'form.signout{display:inline;margin:0}form.inline{display:inline}.secret{font-size:1.05rem;padding:.5rem;display:block;border:1px solid var(--line)}',
  '.cards{display:grid;grid-template-columns:repeat(auto-fit,minmax(14rem,1fr));gap:1rem}.card{border:1px solid var(--line);border-radius:6px;padding:.75rem 1rem}.card h2{margin-top:.25rem}',
  '.meter{height:.75rem;background:var(--soft);border:1px solid var(--line);border-radius:4px;overflow:hidden}.meter span{display:block;height:100%;background:var(--accent)}',
].join('');

/** The shell of dashboard pages outside an organization (sign-in, the org picker, sessions). */
export function dashboardShell(title: string, body: Html, signedIn: { csrfToken: string } | null, style = ''): string {
  const nav = signedIn
    ? html`<a href="/dashboard">Organizations</a><a href="/dashboard/sessions">Sessions</a><a href="/brands">Brands</a>${signOutForm(signedIn.csrfToken)}`
    : html`<a href="/dashboard/sign-in">Sign in</a>`;
  return page({ title, nav, style: DASHBOARD_STYLE + style, body });
}

/** The dashboard page: `page()` with the org navigation (links to every section, `active` highlighted). */
export function dashboardPage(session: DashboardSession, active: DashboardSection, title: string, body: Html, style = ''): string {
  const base = `/dashboard/orgs/${encodeURIComponent(session.orgId)}`;
  const links = SECTIONS.map(
    (s) => html`<li><a href="${base + s.path}"${s.id === active ? html` aria-current="page"` : ''}>${s.label}</a></li>`,
  );
  const notice = session.notice === null ? '' : html`<p class="notice" role="status">${session.notice}</p>`;
  const content = html`<p class="muted">${session.orgName} · signed in as ${session.email} (${session.role})</p><nav aria-label="Organization"><ul class="orgnav">${links}</ul></nav>${notice}${body}`;
  return dashboardShell(title, content, { csrfToken: session.csrfToken }, style);
}
