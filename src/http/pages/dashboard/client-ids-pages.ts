/**
 * The client IDs page of an organization (issue 23; docs/dashboard.md#client-ids): its publishable client IDs for
 * search and the logo CDN with their allowed referrers, this period's request counts, and forms to create one, edit
 * its referrers and revoke it. Owners and members alike may manage client IDs (they are publishable, like an
 * embed code, and spend no credits). Every change goes through billing/client-ids.ts, as the CLI's does.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ClientIdError, type ClientIds } from '../../../billing/client-ids.js';
import { billingPeriod } from '../../../billing/billing-period.js';
import type { ClientIdRecord } from '../../../domain/client-id-record.js';
import type { AppDeps } from '../../app-deps.js';
import { html, type Html } from '../html.js';
import { checkCsrf, csrfField, dashboardHeaders, dashboardPage, redirectWithNotice, requireOrgSession, sendNotFound, type DashboardSession } from './dashboard-session.js';
import { count, errorBox, formChecked, formLines, formText, when, ORG_PAGE_STYLE } from './org-page-form.js';
import type { OrgPagesDeps } from './org-pages-deps.js';

const MAX_NAME_LENGTH = 100;

type OrgParams = { Params: { orgId: string } };
type IdParams = { Params: { orgId: string; clientId: string } };

/** What a refused form sent, shown again so nothing typed is lost. */
export interface ClientIdDraft {
  name: string;
  referrers: string;
  requireReferrer: boolean;
}

export interface ClientIdsView {
  orgId: string;
  clientIds: readonly ClientIdRecord[];
  /** Requests counted this period for the organization's client IDs, and the plan's monthly allowance. */
  requests: { search: number; logo: number };
  allowance: { search: number; logo: number };
  period: string;
}

function base(orgId: string): string {
  return `/dashboard/orgs/${encodeURIComponent(orgId)}/client-ids`;
}

function referrerList(record: ClientIdRecord): Html {
  if (record.allowedReferrers.length === 0) return html`<span class="muted">any site</span>`;
  return html`<ul class="plain">${record.allowedReferrers.map((r) => html`<li><code>${r}</code></li>`)}</ul>`;
}

function row(session: DashboardSession, record: ClientIdRecord): Html {
  const path = `${base(session.orgId)}/${encodeURIComponent(record.id)}`;
  const actions =
    record.revokedAt === null
      ? html`<a href="${path}">Edit referrers<span class="visually-hidden"> of ${record.name}</span></a>
        <form method="post" action="${path}/revoke" class="inline">${csrfField(session)}<button type="submit" class="danger" aria-label="Revoke ${record.name} (${record.id})">Revoke</button></form>`
      : html`<span class="muted">revoked ${when(record.revokedAt)}</span>`;
  return html`<tr><td>${record.name}</td><td><code>${record.id}</code></td><td>${referrerList(record)}</td><td>${record.requireReferrer ? 'yes' : 'no'}</td><td>${when(record.createdAt)}</td><td>${actions}</td></tr>`;
}

function referrerFields(draft: ClientIdDraft, idPrefix: string): Html {
  return html`<label for="${idPrefix}-referrers">Allowed referrers</label>
    <p class="muted" id="${idPrefix}-referrers-help">One host per line: <code>shop.example</code> allows that host only, <code>*.shop.example</code> any subdomain. Empty: any site.</p>
    <textarea id="${idPrefix}-referrers" name="referrers" rows="3" cols="40" aria-describedby="${idPrefix}-referrers-help">${draft.referrers}</textarea>
    <p><input type="checkbox" id="${idPrefix}-require" name="requireReferrer" value="1"${draft.requireReferrer ? html` checked` : ''}>
    <label for="${idPrefix}-require" class="inline-label">Refuse requests that send no referrer (server-side fetches)</label></p>`;
}

/** The list page's body: usage this period, the table of client IDs, and the create form. */
export function clientIdsBody(session: DashboardSession, view: ClientIdsView, draft: ClientIdDraft, error: string | null): Html {
  const live = view.clientIds.filter((c) => c.revokedAt === null);
  const table =
    view.clientIds.length === 0
      ? html`<p>No client IDs yet. Create one below to use <a href="/docs/search">search</a> or the <a href="/docs/logo-cdn">logo CDN</a> from a web page.</p>`
      : html`<table><caption class="visually-hidden">Client IDs of this organization</caption><thead><tr><th scope="col">Name</th><th scope="col">Client ID</th><th scope="col">Allowed referrers</th><th scope="col">Referrer required</th><th scope="col">Created</th><th scope="col">Actions</th></tr></thead><tbody>${view.clientIds.map((c) => row(session, c))}</tbody></table>`;
  return html`<h1>Client IDs</h1>
    <p>A client ID is <strong>publishable</strong>: put it in a web page to call search and the logo CDN. It opens nothing else and spends no API credits. ${live.length} active.</p>
    <h2>Requests this period (${view.period})</h2>
    <ul><li>Search: ${count(view.requests.search)} of ${count(view.allowance.search)} a month</li><li>Logo CDN: ${count(view.requests.logo)} of ${count(view.allowance.logo)} a month</li></ul>
    <h2>Your client IDs</h2>${table}
    <h2 id="create">Create a client ID</h2>${errorBox(error)}
    <form method="post" action="${base(session.orgId)}">${csrfField(session)}
    <label for="cid-name">Name</label><input id="cid-name" name="name" maxlength="${MAX_NAME_LENGTH}" value="${draft.name}" placeholder="website">
    ${referrerFields(draft, 'cid')}
    <button type="submit">Create client ID</button></form>`;
}

/** The edit page's body: one client ID's referrer rules. */
export function clientIdEditBody(session: DashboardSession, record: ClientIdRecord, draft: ClientIdDraft, error: string | null): Html {
  const path = `${base(session.orgId)}/${encodeURIComponent(record.id)}`;
  return html`<h1>Referrers of ${record.name}</h1><p><code>${record.id}</code> · created ${when(record.createdAt)}</p>${errorBox(error)}
    <form method="post" action="${path}/referrers">${csrfField(session)}${referrerFields(draft, 'edit')}<button type="submit">Save referrers</button></form>
    <p><a href="${base(session.orgId)}">Back to client IDs</a></p>`;
}

const STYLE = ORG_PAGE_STYLE + 'td form.inline{margin-left:.5rem}';

function draftOf(record: ClientIdRecord | null): ClientIdDraft {
  return { name: record?.name ?? '', referrers: record?.allowedReferrers.join('\n') ?? '', requireReferrer: record?.requireReferrer ?? false };
}

function postedDraft(request: FastifyRequest): ClientIdDraft {
  return { name: formText(request, 'name'), referrers: formLines(request, 'referrers').join('\n'), requireReferrer: formChecked(request, 'requireReferrer') };
}

/** The organization's own client ID, or null: another organization's ID is treated exactly like a missing one. */
async function ownClientId(clientIds: ClientIds, orgId: string, id: string): Promise<ClientIdRecord | null> {
  return (await clientIds.list(orgId)).find((c) => c.id === id) ?? null;
}

async function listView(org: OrgPagesDeps, orgId: string): Promise<ClientIdsView | null> {
  const organization = await org.accounts.getOrganization(orgId);
  if (!organization) return null;
  const period = billingPeriod(org.now()).key;
  const [clientIds, search, logo] = await Promise.all([
    org.clientIds.list(orgId),
    org.clientIds.requests(orgId, 'search', period),
    org.clientIds.requests(orgId, 'logo', period),
  ]);
  const a = org.clientIdAllowances;
  return { orgId, clientIds, requests: { search, logo }, allowance: { search: a.search[organization.plan], logo: a.logo[organization.plan] }, period };
}

async function sendList(org: OrgPagesDeps, session: DashboardSession, reply: FastifyReply, draft: ClientIdDraft, error: string | null): Promise<FastifyReply> {
  const view = await listView(org, session.orgId);
  if (!view) return sendNotFound(reply);
  return dashboardHeaders(reply)
    .code(error === null ? 200 : 400)
    .send(dashboardPage(session, 'client-ids', 'Client IDs', clientIdsBody(session, view, draft, error), STYLE));
}

export function registerClientIdsPages(app: FastifyInstance, deps: AppDeps): void {
  const org = deps.orgPages;

  app.get<OrgParams>('/dashboard/orgs/:orgId/client-ids', async (request, reply) => {
    const session = await requireOrgSession(deps, request, reply, request.params.orgId);
    if (!session) return reply;
    return sendList(org, session, reply, draftOf(null), null);
  });

  app.post<OrgParams>('/dashboard/orgs/:orgId/client-ids', async (request, reply) => {
    const session = await requireOrgSession(deps, request, reply, request.params.orgId);
    if (!session || !checkCsrf(session, request, reply)) return reply;
    const draft = postedDraft(request);
    if (draft.name.length > MAX_NAME_LENGTH) return sendList(org, session, reply, draft, `The name may be at most ${MAX_NAME_LENGTH} characters.`);
    try {
      const created = await org.clientIds.create(session.orgId, { name: draft.name || 'default', referrers: formLines(request, 'referrers'), requireReferrer: draft.requireReferrer });
      return redirectWithNotice(deps, reply, base(session.orgId), `Client ID ${created.id} created.`);
    } catch (error) {
      if (error instanceof ClientIdError) return sendList(org, session, reply, draft, `Not saved: ${error.message}.`);
      throw error;
    }
  });

  app.get<IdParams>('/dashboard/orgs/:orgId/client-ids/:clientId', async (request, reply) => {
    const session = await requireOrgSession(deps, request, reply, request.params.orgId);
    if (!session) return reply;
    const record = await ownClientId(org.clientIds, session.orgId, request.params.clientId);
    if (!record || record.revokedAt !== null) return sendNotFound(reply);
    return dashboardHeaders(reply).send(dashboardPage(session, 'client-ids', `Referrers of ${record.name}`, clientIdEditBody(session, record, draftOf(record), null), STYLE));
  });

  app.post<IdParams>('/dashboard/orgs/:orgId/client-ids/:clientId/referrers', async (request, reply) => {
    const session = await requireOrgSession(deps, request, reply, request.params.orgId);
    if (!session || !checkCsrf(session, request, reply)) return reply;
    const record = await ownClientId(org.clientIds, session.orgId, request.params.clientId);
    if (!record || record.revokedAt !== null) return sendNotFound(reply);
    const draft = { ...postedDraft(request), name: record.name };
    try {
      await org.clientIds.setReferrers(record.id, formLines(request, 'referrers'), draft.requireReferrer);
      return redirectWithNotice(deps, reply, base(session.orgId), `Referrers of ${record.id} saved.`);
    } catch (error) {
      if (!(error instanceof ClientIdError)) throw error;
      const body = clientIdEditBody(session, record, draft, `Not saved: ${error.message}.`);
      return dashboardHeaders(reply).code(400).send(dashboardPage(session, 'client-ids', `Referrers of ${record.name}`, body, STYLE));
    }
  });

  app.post<IdParams>('/dashboard/orgs/:orgId/client-ids/:clientId/revoke', async (request, reply) => {
    const session = await requireOrgSession(deps, request, reply, request.params.orgId);
    if (!session || !checkCsrf(session, request, reply)) return reply;
    const record = await ownClientId(org.clientIds, session.orgId, request.params.clientId);
    if (!record) return sendNotFound(reply);
    await org.clientIds.revoke(record.id);
    return redirectWithNotice(deps, reply, base(session.orgId), `Client ID ${record.id} revoked: pages using it stop working within seconds.`);
  });
}
