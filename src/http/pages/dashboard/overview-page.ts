/**
 * The organization picker (`/dashboard`) and an organization's overview (`/dashboard/orgs/:orgId`): plan, credits
 * used against the quota this period, API keys and members at a glance, links to every section.
 */
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../app-deps.js';
import { html } from '../html.js';
import { dashboardHeaders, dashboardPage, dashboardShell, requireOrgSession, requireSession, sendNotFound, takeNotice } from './dashboard-session.js';

function formatCount(n: number): string {
  return n.toLocaleString('en-US');
}

export function registerOverviewPages(app: FastifyInstance, deps: AppDeps): void {
  const accounts = deps.dashboard;

  app.get('/dashboard', async (request, reply) => {
    const active = await requireSession(deps, request, reply);
    if (!active) return reply;
    const orgs = await accounts.organizationsOf(active.user.id);
    const notice = takeNotice(deps, request, reply);
    const list =
      orgs.length === 0
        ? html`<p>You are not a member of any organization yet. Ask an owner or the operator (<code>brandbase users add</code>) to add you.</p>`
        : html`<ul>${orgs.map((o) => html`<li><a href="/dashboard/orgs/${encodeURIComponent(o.id)}">${o.name}</a> <span class="muted">(${o.role}, <code>${o.id}</code>)</span></li>`)}</ul>`;
    const body = html`<h1>Your organizations</h1>${notice === null ? '' : html`<p class="notice" role="status">${notice}</p>`}<p class="muted">Signed in as ${active.user.email}.</p>${list}`;
    return dashboardHeaders(reply).send(dashboardShell('Organizations', body, { csrfToken: await accounts.csrfToken(active.session.id) }));
  });

  app.get('/dashboard/orgs/:orgId', async (request, reply) => {
    const { orgId } = request.params as { orgId: string };
    const session = await requireOrgSession(deps, request, reply, orgId);
    if (!session) return reply;
    const org = await deps.accounts.getOrganization(orgId);
    if (!org) return sendNotFound(reply);
    const [usage, keys, members] = await Promise.all([deps.orgUsage.usage(org), deps.accounts.listApiKeys(orgId), accounts.listMembers(orgId)]);
    const live = keys.filter((k) => k.revokedAt === null).length;
    const percent = usage.quota > 0 ? Math.min(100, Math.round((usage.used / usage.quota) * 100)) : 100;
    const base = `/dashboard/orgs/${encodeURIComponent(orgId)}`;
    const body = html`<h1>${org.name}</h1>
<div class="cards">
<section class="card" aria-labelledby="usage-h"><h2 id="usage-h">Credits this period</h2><p><strong id="credits-used">${formatCount(usage.used)}</strong> of <span id="credits-quota">${formatCount(usage.quota)}</span> used</p><div class="meter" role="img" aria-label="${percent} percent of the quota used"><span style="width:${percent}%"></span></div><p><a href="${base}/usage">Usage by day</a></p></section>
<section class="card" aria-labelledby="plan-h"><h2 id="plan-h">Plan</h2><p>${org.plan === 'paid' ? 'Paid' : 'Free'} plan, quota ${formatCount(org.quota)} credits a month.</p><p><a href="${base}/billing">Billing</a></p></section>
<section class="card" aria-labelledby="keys-h"><h2 id="keys-h">API keys</h2><p>${live} active, ${keys.length - live} revoked.</p><p><a href="${base}/keys">Manage keys</a></p></section>
</div>
<h2>Members</h2>
<table><thead><tr><th scope="col">Email</th><th scope="col">Role</th></tr></thead><tbody>${members.map((m) => html`<tr><td>${m.user.email}</td><td>${m.role}</td></tr>`)}</tbody></table>
<p class="muted">The operator adds and removes members with <code>brandbase users add|remove</code>.</p>`;
    return dashboardHeaders(reply).send(dashboardPage(session, 'overview', org.name, body));
  });
}
