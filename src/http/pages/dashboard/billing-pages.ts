/**
 * The billing page of an organization (issue 23; docs/dashboard.md#billing): plan, quota and prepaid balance (set by
 * the operator), the monthly spending limit that caps overage, and the billing contacts who get the usage warnings
 * (80 and 100 percent of the quota, spec 8) and the webhook emails (spec 6). Members see it; only owners change the
 * limit and the contacts (enforced here, on every post). Changes go through billing/billing-admin.ts, the same rules
 * as `brandbase orgs set-spending-limit|set-contacts`.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AccountError } from '../../../billing/accounts.js';
import type { Organization } from '../../../domain/accounts.js';
import type { AppDeps } from '../../app-deps.js';
import { html, type Html } from '../html.js';
import { checkCsrf, csrfField, dashboardHeaders, dashboardPage, redirectWithNotice, requireOrgSession, sendNotFound, type DashboardSession } from './dashboard-session.js';
import { count, dollars, errorBox, formChecked, formText, ownerOnly, ORG_PAGE_STYLE } from './org-page-form.js';
import type { OrgPagesDeps } from './org-pages-deps.js';

type OrgParams = { Params: { orgId: string } };

/** What a refused form sent, shown again. */
export interface BillingDraft {
  contact: string;
  limit: string;
}

export interface BillingErrors {
  contact?: string;
  limit?: string;
}

/** `12`, `12.5`, `$12.50` → cents; null for anything else (no signs, no exponents, at most two decimals). */
export function parseDollars(text: string): number | null {
  const match = /^\$?\s*(\d{1,7})(?:\.(\d{1,2}))?$/.exec(text.trim().replace(/,/g, ''));
  if (!match) return null;
  return Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
}

function limitSection(session: DashboardSession, org: Organization, defaultCents: number, draft: BillingDraft, error: string | undefined): Html {
  const own = org.spendingLimitCents;
  const current = own ?? defaultCents;
  const state = html`<p>Monthly spending limit: <strong>${dollars(current)}</strong> ${own === null ? html`(the installation's default)` : html`(this organization's own)`}. ${current === 0 ? 'Overage is off: past the quota and the prepaid credits, requests answer 429.' : `At most ${count(Math.floor(current / 10))} overage credits a month, at $0.10 each.`}</p>
    ${org.plan === 'paid' ? '' : html`<p class="muted">Overage applies to paid plans only; on the free plan the limit has no effect.</p>`}`;
  if (session.role !== 'owner') return html`<h2>Spending limit</h2>${state}`;
  const value = draft.limit || (own === null ? '' : (own / 100).toFixed(2));
  return html`<h2>Spending limit</h2>${state}${errorBox(error ?? null)}
    <form method="post" action="/dashboard/orgs/${encodeURIComponent(session.orgId)}/billing/spending-limit">${csrfField(session)}
    <label for="limit">Monthly spending limit in US dollars</label><p class="muted" id="limit-help">0 turns overage off. Leave empty and tick the box below to use the default.</p>
    <input id="limit" name="limit" inputmode="decimal" value="${value}" aria-describedby="limit-help" placeholder="${(defaultCents / 100).toFixed(2)}">
    <p><input type="checkbox" id="limit-default" name="useDefault" value="1"><label for="limit-default" class="inline-label">Use the installation's default (${dollars(defaultCents)})</label></p>
    <button type="submit">Save spending limit</button></form>`;
}

function contactsSection(session: DashboardSession, org: Organization, draft: BillingDraft, error: string | undefined): Html {
  const base = `/dashboard/orgs/${encodeURIComponent(session.orgId)}/billing/contacts`;
  const owner = session.role === 'owner';
  const rows = org.billingContacts.map(
    (email) =>
      html`<tr><td>${email}</td>${owner ? html`<td><form method="post" action="${base}/remove" class="inline">${csrfField(session)}<input type="hidden" name="email" value="${email}"><button type="submit" class="danger" aria-label="Remove ${email}">Remove</button></form></td>` : ''}</tr>`,
  );
  const table =
    org.billingContacts.length === 0
      ? html`<p>No billing contacts: usage warnings and webhook emails are not sent.</p>`
      : html`<table><caption class="visually-hidden">Billing contacts</caption><thead><tr><th scope="col">Email</th>${owner ? html`<th scope="col">Actions</th>` : ''}</tr></thead><tbody>${rows}</tbody></table>`;
  const form = owner
    ? html`${errorBox(error ?? null)}<form method="post" action="${base}">${csrfField(session)}<label for="contact">Add a contact</label><input id="contact" name="email" type="email" autocomplete="email" value="${draft.contact}" required> <button type="submit">Add contact</button></form>`
    : '';
  return html`<h2>Billing contacts</h2><p>They get the usage warnings (at 80 and 100 percent of the quota) and webhook emails (abandoned deliveries, disabled webhooks).</p>${table}${form}`;
}

export function billingBody(session: DashboardSession, org: Organization, defaultCents: number, draft: BillingDraft, errors: BillingErrors): Html {
  return html`<h1>Billing</h1>
    <p>Plan: <strong>${org.plan}</strong> · quota ${count(org.quota)} credits a month · ${count(org.prepaidCredits)} prepaid credits left. Plans, quotas and credits are set by the operator.</p>
    ${session.role === 'owner' ? '' : html`<p class="muted">You are a member: only owners can change the spending limit and the contacts.</p>`}
    ${limitSection(session, org, defaultCents, draft, errors.limit)}
    ${contactsSection(session, org, draft, errors.contact)}`;
}

const STYLE = ORG_PAGE_STYLE;

async function sendPage(org: OrgPagesDeps, session: DashboardSession, reply: FastifyReply, draft: BillingDraft = { contact: '', limit: '' }, errors: BillingErrors = {}): Promise<FastifyReply> {
  const organization = await org.accounts.getOrganization(session.orgId);
  if (!organization) return sendNotFound(reply);
  const status = errors.contact || errors.limit ? 400 : 200;
  return dashboardHeaders(reply).code(status).send(dashboardPage(session, 'billing', 'Billing', billingBody(session, organization, org.defaultSpendingLimitCents, draft, errors), STYLE));
}

/** The session of an owner's valid post, or null when an answer (sign-in, 404, 403) was sent. */
async function ownerPost(deps: AppDeps, request: FastifyRequest<OrgParams>, reply: FastifyReply): Promise<DashboardSession | null> {
  const session = await requireOrgSession(deps, request, reply, request.params.orgId);
  if (!session || !checkCsrf(session, request, reply) || !ownerOnly(session, reply)) return null;
  return session;
}

export function registerBillingPages(app: FastifyInstance, deps: AppDeps): void {
  const org = deps.orgPages;
  const page = (orgId: string): string => `/dashboard/orgs/${encodeURIComponent(orgId)}/billing`;

  app.get<OrgParams>('/dashboard/orgs/:orgId/billing', async (request, reply) => {
    const session = await requireOrgSession(deps, request, reply, request.params.orgId);
    if (!session) return reply;
    return sendPage(org, session, reply);
  });

  app.post<OrgParams>('/dashboard/orgs/:orgId/billing/spending-limit', async (request, reply) => {
    const session = await ownerPost(deps, request, reply);
    if (!session) return reply;
    const text = formText(request, 'limit');
    const cents = formChecked(request, 'useDefault') ? null : parseDollars(text);
    if (cents === null && !formChecked(request, 'useDefault')) {
      return sendPage(org, session, reply, { contact: '', limit: text.slice(0, 40) }, { limit: 'Not saved: write the limit in US dollars, such as 25 or 25.50 (0 turns overage off).' });
    }
    await org.billingAdmin.setSpendingLimit(session.orgId, cents);
    return redirectWithNotice(deps, reply, page(session.orgId), cents === null ? 'The spending limit now follows the default.' : `Spending limit set to ${dollars(cents)} a month.`);
  });

  app.post<OrgParams>('/dashboard/orgs/:orgId/billing/contacts', async (request, reply) => {
    const session = await ownerPost(deps, request, reply);
    if (!session) return reply;
    const email = formText(request, 'email');
    const organization = await org.accounts.getOrganization(session.orgId);
    if (!organization) return sendNotFound(reply);
    try {
      await org.billingAdmin.setContacts(session.orgId, [...organization.billingContacts, email]);
    } catch (error) {
      if (!(error instanceof AccountError)) throw error;
      return sendPage(org, session, reply, { contact: email.slice(0, 254), limit: '' }, { contact: `Not added: ${error.message}` });
    }
    return redirectWithNotice(deps, reply, page(session.orgId), 'Billing contact added.');
  });

  app.post<OrgParams>('/dashboard/orgs/:orgId/billing/contacts/remove', async (request, reply) => {
    const session = await ownerPost(deps, request, reply);
    if (!session) return reply;
    const email = formText(request, 'email').toLowerCase();
    const organization = await org.accounts.getOrganization(session.orgId);
    if (!organization) return sendNotFound(reply);
    const kept = organization.billingContacts.filter((c) => c.toLowerCase() !== email);
    if (kept.length === organization.billingContacts.length) return redirectWithNotice(deps, reply, page(session.orgId), 'That address was not a billing contact.');
    await org.billingAdmin.setContacts(session.orgId, kept);
    return redirectWithNotice(deps, reply, page(session.orgId), 'Billing contact removed.');
  });
}
