/**
 * The API keys page (`/dashboard/orgs/:orgId/keys`): create a key with a name (its secret is shown once, on the
 * answer to the create form, never stored or redirected), list keys with name, prefix, created and revoked, revoke.
 * Any member may create and revoke the organization's keys (the people who build against the API).
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ApiKeyRecord } from '../../../domain/accounts.js';
import type { AppDeps } from '../../app-deps.js';
import { html, type Html } from '../html.js';
import { checkCsrf, csrfField, dashboardHeaders, dashboardPage, redirectWithNotice, requireOrgSession, type DashboardSession } from './dashboard-session.js';

/** A key name is a label people read in a list. */
const MAX_KEY_NAME = 100;

function when(date: Date): string {
  return `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

function keysBase(orgId: string): string {
  return `/dashboard/orgs/${encodeURIComponent(orgId)}/keys`;
}

function keyRow(session: DashboardSession, key: ApiKeyRecord): Html {
  const action =
    key.revokedAt === null
      ? html`<form method="post" action="${keysBase(session.orgId)}/${encodeURIComponent(key.id)}/revoke" class="inline">${csrfField(session)}<button type="submit" class="danger" aria-label="Revoke ${key.name}">Revoke</button></form>`
      : html`<span class="muted">Revoked ${when(key.revokedAt)}</span>`;
  return html`<tr><td>${key.name}</td><td><code>${key.prefix}…</code></td><td>${when(key.createdAt)}</td><td>${action}</td></tr>`;
}

function keysBody(session: DashboardSession, keys: ApiKeyRecord[], top: Html | null, nameValue = ''): Html {
  const rows = keys.length === 0 ? html`<tr><td colspan="4">No keys yet.</td></tr>` : keys.map((k) => keyRow(session, k));
  return html`<h1>API keys</h1>${top}
<h2>Create a key</h2>
<form method="post" action="${keysBase(session.orgId)}">${csrfField(session)}<label for="key-name">Name</label><input id="key-name" name="name" required maxlength="${MAX_KEY_NAME}" size="30" value="${nameValue}" placeholder="e.g. Production server"> <button type="submit">Create key</button></form>
<p class="muted">The key's secret is shown once, right after you create it. Send it as <code>Authorization: Bearer &lt;key&gt;</code>.</p>
<h2>Keys</h2>
<table><thead><tr><th scope="col">Name</th><th scope="col">Prefix</th><th scope="col">Created</th><th scope="col">Status</th></tr></thead><tbody>${rows}</tbody></table>`;
}

async function sendKeysPage(deps: AppDeps, reply: FastifyReply, session: DashboardSession, status: number, top: Html | null, nameValue?: string): Promise<FastifyReply> {
  const keys = await deps.accounts.listApiKeys(session.orgId);
  const sorted = [...keys].sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime());
  return dashboardHeaders(reply).code(status).send(dashboardPage(session, 'keys', 'API keys', keysBody(session, sorted, top, nameValue)));
}

export function registerKeysPages(app: FastifyInstance, deps: AppDeps): void {
  const accounts = deps.accounts;

  app.get('/dashboard/orgs/:orgId/keys', async (request, reply) => {
    const session = await requireOrgSession(deps, request, reply, (request.params as { orgId: string }).orgId);
    if (!session) return reply;
    return sendKeysPage(deps, reply, session, 200, null);
  });

  app.post('/dashboard/orgs/:orgId/keys', async (request, reply) => {
    const session = await requireOrgSession(deps, request, reply, (request.params as { orgId: string }).orgId);
    if (!session || !checkCsrf(session, request, reply)) return reply;
    const raw = (request.body as Record<string, unknown> | undefined)?.['name'];
    const name = typeof raw === 'string' ? raw.trim() : '';
    if (name === '' || name.length > MAX_KEY_NAME) {
      return sendKeysPage(deps, reply, session, 400, html`<p class="error" role="alert">A key needs a name of 1 to ${MAX_KEY_NAME} characters.</p>`, name.slice(0, MAX_KEY_NAME));
    }
    const created = await accounts.createApiKey({ orgId: session.orgId, name });
    const shown = html`<section class="notice" aria-labelledby="new-key-h"><h2 id="new-key-h">Your new key “${created.name}”</h2><p>Copy it now: it is shown only this once. Brandbase keeps only a hash of it.</p><label for="new-key">Secret</label><input id="new-key" class="secret" readonly value="${created.key}" size="60" data-testid="new-key"></section>`;
    return sendKeysPage(deps, reply, session, 201, shown);
  });

  app.post('/dashboard/orgs/:orgId/keys/:keyId/revoke', async (request, reply) => {
    const { orgId, keyId } = request.params as { orgId: string; keyId: string };
    const session = await requireOrgSession(deps, request, reply, orgId);
    if (!session || !checkCsrf(session, request, reply)) return reply;
    const key = (await accounts.listApiKeys(orgId)).find((k) => k.id === keyId);
    if (!key) return sendKeysPage(deps, reply, session, 404, html`<p class="error" role="alert">There is no such key in this organization.</p>`);
    // Accounts also drops it from this process's verified-key cache (the one main/ hands it).
    await accounts.revokeApiKey(key.id);
    return redirectWithNotice(deps, reply, keysBase(orgId), `Key “${key.name}” is revoked.`);
  });
}
