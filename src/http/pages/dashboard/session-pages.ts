/**
 * The signed-in person's sessions (`/dashboard/sessions`): every browser signed in to the account, with when it
 * signed in, was last seen and its browser; revoke one, or sign out every other session.
 */
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../app-deps.js';
import { html } from '../html.js';
import { checkSessionCsrf, dashboardHeaders, dashboardShell, redirectWithNotice, requireSession, takeNotice } from './dashboard-session.js';

function when(date: Date): string {
  return `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

export function registerSessionPages(app: FastifyInstance, deps: AppDeps): void {
  const accounts = deps.dashboard;

  app.get('/dashboard/sessions', async (request, reply) => {
    const active = await requireSession(deps, request, reply);
    if (!active) return reply;
    const [sessions, csrfToken] = await Promise.all([accounts.listSessions(active.user.id), accounts.csrfToken(active.session.id)]);
    const notice = takeNotice(deps, request, reply);
    const csrf = html`<input type="hidden" name="_csrf" value="${csrfToken}">`;
    const rows = sessions.map((s) => {
      const current = s.id === active.session.id;
      const action = current
        ? html`<strong>This browser</strong>`
        : html`<form method="post" action="/dashboard/sessions/${encodeURIComponent(s.id)}/revoke" class="inline">${csrf}<button type="submit" class="danger" aria-label="Sign out the session from ${when(s.createdAt)}">Sign out</button></form>`;
      return html`<tr><td>${when(s.createdAt)}</td><td>${when(s.lastSeenAt)}</td><td>${s.userAgent ?? '—'}</td><td>${action}</td></tr>`;
    });
    const body = html`<h1>Your sessions</h1>${notice === null ? '' : html`<p class="notice" role="status">${notice}</p>`}
<p class="muted">Browsers signed in as ${active.user.email}. Sessions end 14 days after sign-in, or when signed out here.</p>
<table><thead><tr><th scope="col">Signed in</th><th scope="col">Last seen</th><th scope="col">Browser</th><th scope="col">Action</th></tr></thead><tbody>${rows}</tbody></table>
<form method="post" action="/dashboard/sessions/revoke-others">${csrf}<p><button type="submit" class="secondary">Sign out all other sessions</button></p></form>`;
    return dashboardHeaders(reply).send(dashboardShell('Sessions', body, { csrfToken }));
  });

  app.post('/dashboard/sessions/:sessionId/revoke', async (request, reply) => {
    const active = await requireSession(deps, request, reply);
    if (!active || !(await checkSessionCsrf(deps, active, request, reply))) return reply;
    const revoked = await accounts.revokeSession(active.user.id, (request.params as { sessionId: string }).sessionId);
    return redirectWithNotice(deps, reply, '/dashboard/sessions', revoked ? 'That session is signed out.' : 'That session was already signed out.');
  });

  app.post('/dashboard/sessions/revoke-others', async (request, reply) => {
    const active = await requireSession(deps, request, reply);
    if (!active || !(await checkSessionCsrf(deps, active, request, reply))) return reply;
    const count = await accounts.revokeOtherSessions(active.user.id, active.session.id);
    return redirectWithNotice(deps, reply, '/dashboard/sessions', `${count} other session${count === 1 ? '' : 's'} signed out.`);
  });
}
