/**
 * The webhooks pages of an organization (issue 23; docs/dashboard.md#webhooks): endpoints, their settings and
 * subscriptions (brand domains), deliveries with every attempt (status, response code, time, next retry), and
 * "send a test event". The same operations as `POST /graphql` and `brandbase webhooks`, through the same service
 * (webhooks/management/webhook-management.ts: paid plans only, the URL policy, sealed secrets). A signing secret is
 * shown once, in the answer to the post that made it (create, rotate), never stored in a cookie or shown again.
 * Members see everything but secrets; only owners change anything (they decide where brand data is sent).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Organization } from '../../../domain/accounts.js';
import { ApiError } from '../../../domain/errors.js';
import type { Webhook, WebhookAttempt, WebhookEventKind, WebhookSubscription } from '../../../domain/webhooks.js';
import type { DeliveryView, WebhookManagement } from '../../../webhooks/management/webhook-management.js';
import type { Page } from '../../../webhooks/management/page-cursor.js';
import type { AppDeps } from '../../app-deps.js';
import { html, type Html } from '../html.js';
import { checkCsrf, csrfField, dashboardHeaders, dashboardPage, redirectWithNotice, requireOrgSession, sendNotFound, type DashboardSession } from './dashboard-session.js';
import { errorBox, formAll, formChecked, formLines, formText, ownerOnly, when, ORG_PAGE_STYLE } from './org-page-form.js';
import type { OrgPagesDeps } from './org-pages-deps.js';

type OrgParams = { Params: { orgId: string } };
type HookParams = { Params: { orgId: string; webhookId: string }; Querystring: { after?: string } };

/** Deliveries per page of the webhook page. */
const DELIVERIES_PER_PAGE = 20;
const SUBSCRIBABLE: readonly WebhookEventKind[] = ['brand.rebranded', 'brand.updated'];
const EVENT_HELP: Readonly<Record<string, string>> = {
  'brand.rebranded': 'the name or main logo changed',
  'brand.updated': 'any other field changed on a re-crawl',
};

export interface WebhookDraft {
  name: string;
  url: string;
  events: string[];
  authorization: string;
}

const EMPTY_DRAFT: WebhookDraft = { name: '', url: '', events: [...SUBSCRIBABLE], authorization: '' };

function listPath(orgId: string): string {
  return `/dashboard/orgs/${encodeURIComponent(orgId)}/webhooks`;
}

function hookPath(orgId: string, id: string): string {
  return `${listPath(orgId)}/${encodeURIComponent(id)}`;
}

function state(w: Webhook): string {
  if (w.enabled) return 'enabled';
  return w.disabledReason === 'failing' ? 'disabled: failing for 14 days' : 'disabled';
}

function eventBoxes(prefix: string, checked: readonly string[]): Html {
  return html`<fieldset><legend>Events</legend>${SUBSCRIBABLE.map(
    (kind) => html`<p><input type="checkbox" id="${prefix}-${kind}" name="events" value="${kind}"${checked.includes(kind) ? html` checked` : ''}><label for="${prefix}-${kind}" class="inline-label"><code>${kind}</code>: ${EVENT_HELP[kind]}</label></p>`,
  )}</fieldset>`;
}

function webhookFields(prefix: string, draft: WebhookDraft, creating: boolean): Html {
  return html`<label for="${prefix}-url">Endpoint URL (https)</label><input id="${prefix}-url" name="url" type="url" size="50" value="${draft.url}" required>
    <label for="${prefix}-name">Name</label><input id="${prefix}-name" name="name" maxlength="100" value="${draft.name}">
    ${eventBoxes(prefix, draft.events)}
    <label for="${prefix}-auth">Authorization header value${creating ? ' (optional)' : ''}</label>
    <p class="muted" id="${prefix}-auth-help">Sent with every delivery, kept encrypted, never shown again.${creating ? '' : ' Leave empty to keep the current one.'}</p>
    <input id="${prefix}-auth" name="authorization" autocomplete="off" size="50" value="${draft.authorization}" aria-describedby="${prefix}-auth-help">`;
}

function paidOnly(): Html {
  return html`<h1>Webhooks</h1><p>Webhooks are available on paid plans only. They tell your endpoint when a brand you subscribe to is rebranded or updated (<a href="/docs/webhooks">how webhooks work</a>).</p>`;
}

export function webhookListBody(session: DashboardSession, hooks: readonly Webhook[], draft: WebhookDraft, error: string | null): Html {
  const rows = hooks.map(
    (w) =>
      html`<tr><td><a href="${hookPath(session.orgId, w.id)}">${w.name}</a></td><td><code>${w.url}</code></td><td>${w.events.join(', ')}</td><td>${state(w)}</td><td>${when(w.lastAcceptedAt)}</td></tr>`,
  );
  const table =
    hooks.length === 0
      ? html`<p>No webhooks yet.</p>`
      : html`<table><caption class="visually-hidden">Webhook endpoints</caption><thead><tr><th scope="col">Name</th><th scope="col">URL</th><th scope="col">Events</th><th scope="col">State</th><th scope="col">Last accepted delivery</th></tr></thead><tbody>${rows}</tbody></table>`;
  const form =
    session.role === 'owner'
      ? html`<h2 id="create">Add an endpoint</h2>${errorBox(error)}<form method="post" action="${listPath(session.orgId)}">${csrfField(session)}${webhookFields('new', draft, true)}<p><button type="submit">Add endpoint</button></p></form>`
      : html`<p class="muted">You are a member: only owners add and change webhooks.</p>`;
  return html`<h1>Webhooks</h1><p>Deliveries are signed (Standard Webhooks) and retried for about a week (<a href="/docs/webhooks">how to verify them</a>).</p>${table}${form}`;
}

/** The answer to a post that made a secret: the only time it is shown. */
export function secretBody(session: DashboardSession, webhook: Webhook, secret: string, rotated: boolean): Html {
  return html`<h1>${rotated ? 'New signing secret' : 'Endpoint added'}</h1>
    <p role="status" class="notice">Copy the signing secret of <strong>${webhook.name}</strong> now: it is not shown again.</p>
    <label for="secret">Signing secret</label><input id="secret" class="secret" readonly value="${secret}" size="60">
    ${rotated ? html`<p>The previous secret keeps signing (as a second signature) for 24 hours, so receivers can switch over.</p>` : ''}
    <p><a href="${hookPath(session.orgId, webhook.id)}">Continue to the endpoint</a></p>`;
}

function attemptTable(attempts: readonly WebhookAttempt[]): Html {
  if (attempts.length === 0) return html`<span class="muted">none yet</span>`;
  return html`<table class="attempts"><thead><tr><th scope="col">#</th><th scope="col">Started</th><th scope="col">Response</th><th scope="col">Time</th><th scope="col">Detail</th></tr></thead><tbody>${attempts.map(
    (a) => html`<tr><td>${a.attempt}</td><td>${when(a.startedAt)}</td><td>${a.statusCode ?? 'no response'}</td><td>${a.latencyMs} ms</td><td>${a.error ?? a.responseExcerpt ?? ''}</td></tr>`,
  )}</tbody></table>`;
}

function deliveryRows(deliveries: Page<DeliveryView>): Html {
  return html`${deliveries.edges.map(({ node: d }) => {
    const next = d.state === 'pending' ? when(d.nextAttemptAt) : '—';
    return html`<tr><td>${when(d.createdAt)}</td><td><code>${d.kind}</code></td><td>${d.domain}</td><td>${d.state}</td><td>${next}</td><td><details><summary>${d.attempts} attempt${d.attempts === 1 ? '' : 's'}<span class="visually-hidden"> of delivery ${d.id}</span></summary>${attemptTable(d.attemptList)}</details></td></tr>`;
  })}`;
}

export interface WebhookView {
  webhook: Webhook;
  subscriptions: Page<WebhookSubscription>;
  deliveries: Page<DeliveryView>;
}

function settingsSection(session: DashboardSession, w: Webhook, draft: WebhookDraft | null, error: string | null): Html {
  const path = hookPath(session.orgId, w.id);
  const facts = html`<ul><li>URL: <code>${w.url}</code></li><li>Events: ${w.events.join(', ')}</li><li>State: ${state(w)}</li><li>Authorization header: ${w.hasAuthorization ? 'set' : 'none'}</li><li>Created ${when(w.createdAt)}; last accepted delivery ${when(w.lastAcceptedAt)}</li></ul>`;
  if (session.role !== 'owner') return facts;
  const d = draft ?? { name: w.name, url: w.url, events: w.events, authorization: '' };
  return html`${facts}
    <form method="post" action="${path}/enabled" class="inline">${csrfField(session)}<input type="hidden" name="enabled" value="${w.enabled ? '0' : '1'}"><button type="submit" class="secondary">${w.enabled ? 'Disable' : 'Enable'} endpoint</button></form>
    <form method="post" action="${path}/rotate" class="inline">${csrfField(session)}<button type="submit" class="secondary">Rotate signing secret</button></form>
    <form method="post" action="${path}/delete" class="inline">${csrfField(session)}<input type="checkbox" id="confirm-delete" name="confirm" value="1" required><label for="confirm-delete" class="inline-label">with its subscriptions and deliveries</label> <button type="submit" class="danger">Delete endpoint</button></form>
    <h2 id="settings">Settings</h2>${errorBox(error)}
    <form method="post" action="${path}">${csrfField(session)}${webhookFields('edit', d, false)}
    <p><input type="checkbox" id="edit-noauth" name="removeAuthorization" value="1"><label for="edit-noauth" class="inline-label">Remove the Authorization header</label></p>
    <p><button type="submit">Save settings</button></p></form>`;
}

function subscriptionsSection(session: DashboardSession, view: WebhookView, typed: string, error: string | null): Html {
  const path = hookPath(session.orgId, view.webhook.id);
  const owner = session.role === 'owner';
  const subs = view.subscriptions.edges.map(
    ({ node: s }) =>
      html`<tr><td>${s.domain}</td><td>${when(s.createdAt)}</td>${owner ? html`<td><form method="post" action="${path}/subscriptions/remove" class="inline">${csrfField(session)}<input type="hidden" name="domains" value="${s.domain}"><button type="submit" class="danger" aria-label="Unsubscribe ${s.domain}">Unsubscribe</button></form></td>` : ''}</tr>`,
  );
  const table =
    subs.length === 0
      ? html`<p>No subscriptions: this endpoint receives test events only.</p>`
      : html`<table><caption class="visually-hidden">Subscribed domains</caption><thead><tr><th scope="col">Domain</th><th scope="col">Since</th>${owner ? html`<th scope="col">Actions</th>` : ''}</tr></thead><tbody>${subs}</tbody></table>${view.subscriptions.hasNextPage ? html`<p class="muted">The first 100 are shown.</p>` : ''}`;
  const form = owner
    ? html`${errorBox(error)}<form method="post" action="${path}/subscriptions">${csrfField(session)}<label for="domains">Subscribe to domains</label><p class="muted" id="domains-help">One per line; a brand not held yet is indexed first.</p><textarea id="domains" name="domains" rows="3" cols="40" aria-describedby="domains-help">${typed}</textarea><p><button type="submit">Subscribe</button></p></form>`
    : '';
  return html`<h2 id="subscriptions">Subscriptions</h2>${table}${form}`;
}

function deliveriesSection(session: DashboardSession, view: WebhookView): Html {
  const path = hookPath(session.orgId, view.webhook.id);
  const test =
    session.role === 'owner'
      ? html`<form method="post" action="${path}/test">${csrfField(session)}<label for="test-domain">Send a test event</label><p class="muted" id="test-domain-help">Optional: a held brand's domain to send; otherwise one of the subscriptions, or a sample brand.</p><input id="test-domain" name="domain" aria-describedby="test-domain-help"> <button type="submit">Send test event</button></form>`
      : '';
  const table =
    view.deliveries.edges.length === 0
      ? html`<p>No deliveries yet.</p>`
      : html`<table><caption class="visually-hidden">Deliveries, newest first</caption><thead><tr><th scope="col">Created</th><th scope="col">Event</th><th scope="col">Domain</th><th scope="col">State</th><th scope="col">Next retry</th><th scope="col">Attempts</th></tr></thead><tbody>${deliveryRows(view.deliveries)}</tbody></table>`;
  const more = view.deliveries.hasNextPage && view.deliveries.endCursor ? html`<p><a href="${path}?after=${encodeURIComponent(view.deliveries.endCursor)}#deliveries">Older deliveries</a></p>` : '';
  return html`<h2 id="deliveries">Deliveries</h2>${test}${table}${more}`;
}

export function webhookBody(session: DashboardSession, view: WebhookView, form: { draft?: WebhookDraft; settingsError?: string; domains?: string; domainsError?: string } = {}): Html {
  return html`<h1>${view.webhook.name}</h1><p><a href="${listPath(session.orgId)}">All webhooks</a></p>
    ${settingsSection(session, view.webhook, form.draft ?? null, form.settingsError ?? null)}
    ${subscriptionsSection(session, view, form.domains ?? '', form.domainsError ?? null)}
    ${deliveriesSection(session, view)}`;
}

const STYLE = ORG_PAGE_STYLE + 'fieldset{border:1px solid var(--line);border-radius:4px;margin:.75rem 0}form.inline{margin:0 .5rem .5rem 0}table.attempts{font-size:.9rem}details summary{cursor:pointer}';

function postedDraft(request: FastifyRequest): WebhookDraft {
  return { name: formText(request, 'name'), url: formText(request, 'url'), events: formAll(request, 'events'), authorization: formText(request, 'authorization') };
}

/** An error from the service as the page shows it, or null for errors that are not the user's (thrown on). */
function userError(error: unknown): string | null {
  if (isCode(error, 'invalid_webhook_input', 'invalid_webhook_url', 'too_many_domains')) return (error as ApiError).message;
  return null;
}

function isCode(error: unknown, ...codes: string[]): boolean {
  return error instanceof ApiError && codes.includes(error.code);
}

class WebhookPages {
  constructor(
    private readonly deps: AppDeps,
    private readonly org: OrgPagesDeps,
  ) {}

  get hooks(): WebhookManagement {
    return this.org.webhooks;
  }

  async organization(session: DashboardSession): Promise<Organization | null> {
    return this.org.accounts.getOrganization(session.orgId);
  }

  send(reply: FastifyReply, session: DashboardSession, title: string, body: Html, status = 200): FastifyReply {
    return dashboardHeaders(reply).code(status).send(dashboardPage(session, 'webhooks', title, body, STYLE));
  }

  async list(session: DashboardSession, reply: FastifyReply, organization: Organization, draft: WebhookDraft, error: string | null): Promise<FastifyReply> {
    if (organization.plan !== 'paid') return this.send(reply, session, 'Webhooks', paidOnly());
    const page = await this.hooks.list(organization, { first: 100 });
    return this.send(reply, session, 'Webhooks', webhookListBody(session, page.edges.map((e) => e.node), draft, error), error === null ? 200 : 400);
  }

  async view(organization: Organization, id: string, after: string | null): Promise<WebhookView> {
    const webhook = await this.hooks.get(organization, id);
    const [subscriptions, deliveries] = await Promise.all([
      this.hooks.subscriptions(organization, webhook, { first: 100 }),
      this.hooks.deliveries(organization, webhook, { first: DELIVERIES_PER_PAGE, after }),
    ]);
    return { webhook, subscriptions, deliveries };
  }

  /** The webhook page, or the 404 / paid-plan / bad-cursor answer. `form` re-shows a refused form (400). */
  async detail(session: DashboardSession, reply: FastifyReply, id: string, after: string | null, form?: Parameters<typeof webhookBody>[2]): Promise<FastifyReply> {
    const organization = await this.organization(session);
    if (!organization) return sendNotFound(reply);
    if (organization.plan !== 'paid') return this.send(reply, session, 'Webhooks', paidOnly(), 403);
    try {
      const view = await this.view(organization, id, after);
      return this.send(reply, session, view.webhook.name, webhookBody(session, view, form), form ? 400 : 200);
    } catch (error) {
      if (isCode(error, 'webhook_not_found', 'invalid_cursor')) return sendNotFound(reply);
      throw error;
    }
  }

  /** An owner's checked post on a paid organization, or null when an answer was sent. */
  async ownerPost(request: FastifyRequest<{ Params: { orgId: string } }>, reply: FastifyReply): Promise<{ session: DashboardSession; organization: Organization } | null> {
    const session = await requireOrgSession(this.deps, request, reply, request.params.orgId);
    if (!session || !checkCsrf(session, request, reply) || !ownerOnly(session, reply)) return null;
    const organization = await this.organization(session);
    if (!organization) {
      await sendNotFound(reply);
      return null;
    }
    if (organization.plan !== 'paid') {
      await this.send(reply, session, 'Webhooks', paidOnly(), 403);
      return null;
    }
    return { session, organization };
  }

  /** Runs a change of one webhook: 404 for another organization's or a missing one; a refused input re-shows the form. */
  async change(
    request: FastifyRequest<HookParams>,
    reply: FastifyReply,
    run: (organization: Organization, id: string, session: DashboardSession) => Promise<FastifyReply | string>,
    refused: (message: string) => Parameters<typeof webhookBody>[2],
  ): Promise<FastifyReply> {
    const post = await this.ownerPost(request, reply);
    if (!post) return reply;
    const id = request.params.webhookId;
    try {
      const outcome = await run(post.organization, id, post.session);
      return typeof outcome === 'string' ? redirectWithNotice(this.deps, reply, hookPath(post.session.orgId, id), outcome) : outcome;
    } catch (error) {
      if (isCode(error, 'webhook_not_found')) return sendNotFound(reply);
      const message = userError(error);
      if (message === null) throw error;
      return this.detail(post.session, reply, id, null, refused(message));
    }
  }
}

function subscriptionNotice(verb: string, changed: readonly string[], invalid: readonly { input: string }[], queued: readonly string[]): string {
  const parts = [`${changed.length} domain${changed.length === 1 ? '' : 's'} ${verb}.`];
  if (queued.length > 0) parts.push(`${queued.length} not held yet: indexing queued.`);
  if (invalid.length > 0) parts.push(`Not domains, skipped: ${invalid.map((i) => i.input.slice(0, 60)).join(', ')}.`);
  return parts.join(' ');
}

export function registerWebhookPages(app: FastifyInstance, deps: AppDeps): void {
  const org = deps.orgPages;
  const pages = new WebhookPages(deps, org);

  app.get<OrgParams>('/dashboard/orgs/:orgId/webhooks', async (request, reply) => {
    const session = await requireOrgSession(deps, request, reply, request.params.orgId);
    if (!session) return reply;
    const organization = await pages.organization(session);
    if (!organization) return sendNotFound(reply);
    return pages.list(session, reply, organization, EMPTY_DRAFT, null);
  });

  app.post<OrgParams>('/dashboard/orgs/:orgId/webhooks', async (request, reply) => {
    const post = await pages.ownerPost(request, reply);
    if (!post) return reply;
    const draft = postedDraft(request);
    try {
      const created = await org.webhooks.create(post.organization, { url: draft.url, name: draft.name || null, events: draft.events, authorization: draft.authorization || null });
      return pages.send(reply, post.session, 'Endpoint added', secretBody(post.session, created.webhook, created.secret, false));
    } catch (error) {
      const message = userError(error);
      if (message === null) throw error;
      return pages.list(post.session, reply, post.organization, { ...draft, authorization: '' }, message);
    }
  });

  app.get<HookParams>('/dashboard/orgs/:orgId/webhooks/:webhookId', async (request, reply) => {
    const session = await requireOrgSession(deps, request, reply, request.params.orgId);
    if (!session) return reply;
    return pages.detail(session, reply, request.params.webhookId, request.query.after ?? null);
  });

  app.post<HookParams>('/dashboard/orgs/:orgId/webhooks/:webhookId', (request, reply) => {
    const draft = postedDraft(request);
    return pages.change(
      request,
      reply,
      async (organization, id) => {
        const authorization = formChecked(request, 'removeAuthorization') ? null : draft.authorization === '' ? undefined : draft.authorization;
        await org.webhooks.update(organization, id, { url: draft.url, name: draft.name || null, events: draft.events, authorization });
        return 'Settings saved.';
      },
      (message) => ({ draft: { ...draft, authorization: '' }, settingsError: message }),
    );
  });

  app.post<HookParams>('/dashboard/orgs/:orgId/webhooks/:webhookId/enabled', (request, reply) =>
    pages.change(
      request,
      reply,
      async (organization, id) => {
        const enabled = formText(request, 'enabled') === '1';
        await org.webhooks.update(organization, id, { enabled });
        return enabled ? 'Endpoint enabled.' : 'Endpoint disabled: no deliveries are sent until it is enabled again.';
      },
      (message) => ({ settingsError: message }),
    ),
  );

  app.post<HookParams>('/dashboard/orgs/:orgId/webhooks/:webhookId/rotate', (request, reply) =>
    pages.change(
      request,
      reply,
      async (organization, id, session) => {
        const rotated = await org.webhooks.rotateSecret(organization, id);
        return pages.send(reply, session, 'New signing secret', secretBody(session, rotated.webhook, rotated.secret, true));
      },
      (message) => ({ settingsError: message }),
    ),
  );

  app.post<HookParams>('/dashboard/orgs/:orgId/webhooks/:webhookId/delete', async (request, reply) => {
    const post = await pages.ownerPost(request, reply);
    if (!post) return reply;
    try {
      if (!formChecked(request, 'confirm')) {
        await org.webhooks.get(post.organization, request.params.webhookId);
        return pages.detail(post.session, reply, request.params.webhookId, null, { settingsError: 'Not deleted: tick the box to confirm deleting the endpoint with its subscriptions and deliveries.' });
      }
      await org.webhooks.delete(post.organization, request.params.webhookId);
    } catch (error) {
      if (isCode(error, 'webhook_not_found')) return sendNotFound(reply);
      throw error;
    }
    return redirectWithNotice(deps, reply, listPath(post.session.orgId), 'Endpoint deleted with its subscriptions and deliveries.');
  });

  app.post<HookParams>('/dashboard/orgs/:orgId/webhooks/:webhookId/subscriptions', (request, reply) => {
    const domains = formLines(request, 'domains');
    return pages.change(
      request,
      reply,
      async (organization, id) => {
        const change = await org.webhooks.addSubscriptions(organization, id, domains);
        return subscriptionNotice('subscribed', change.changed, change.invalid, [...change.queued, ...change.notQueued]);
      },
      (message) => ({ domains: domains.join('\n'), domainsError: message }),
    );
  });

  app.post<HookParams>('/dashboard/orgs/:orgId/webhooks/:webhookId/subscriptions/remove', (request, reply) =>
    pages.change(
      request,
      reply,
      async (organization, id) => {
        const change = await org.webhooks.removeSubscriptions(organization, id, formLines(request, 'domains'));
        return subscriptionNotice('unsubscribed', change.changed, change.invalid, []);
      },
      (message) => ({ domainsError: message }),
    ),
  );

  app.post<HookParams>('/dashboard/orgs/:orgId/webhooks/:webhookId/test', (request, reply) =>
    pages.change(
      request,
      reply,
      async (organization, id) => {
        const domain = formText(request, 'domain');
        const delivery = await org.webhooks.sendTestEvent(organization, id, domain === '' ? null : domain);
        org.notifyWebhookSender();
        return `Test event queued (delivery ${delivery.id}, brand ${delivery.domain}); it is sent within seconds. Reload to see its attempts.`;
      },
      (message) => ({ settingsError: message }),
    ),
  );
}
