/**
 * The payments page of an organization (issue 23; docs/dashboard.md#payments): what the store holds of its money
 * and standing access (spec 5.3, ADR 0029): the access purchases that credited it (x402 or MPP, wallet or card),
 * the API keys and MCP tokens those purchases issued, and every prepaid credit grant (purchases and the operator's).
 * Read-only for owners and members: keys are revoked on the API keys page; pay-per-request lookups (spec 5.2) belong
 * to no organization and are not shown here.
 */
import type { FastifyInstance } from 'fastify';
import type { AccessPurchase, AgentPayer, McpTokenRecord } from '../../../domain/access-purchases.js';
import type { CreditGrant } from '../../../domain/accounts.js';
import type { OrganizationPayments } from '../../../payments/payment-admin.js';
import type { AppDeps } from '../../app-deps.js';
import { html, type Html } from '../html.js';
import { dashboardHeaders, dashboardPage, requireOrgSession, type DashboardSession } from './dashboard-session.js';
import { count, dollars, when, ORG_PAGE_STYLE } from './org-page-form.js';

/** Purchases listed at most (newest first). */
const PURCHASES_SHOWN = 100;

/** What the page shows: the organization's standing access, as payments/payment-admin.ts reads it. */
export type PaymentsView = OrganizationPayments;

function payerText(payer: AgentPayer): Html {
  return payer.kind === 'card' ? html`card` : html`wallet <code>${payer.address}</code> <span class="muted">(${payer.network})</span>`;
}

function purchasesTable(purchases: readonly AccessPurchase[]): Html {
  if (purchases.length === 0) return html`<p>No standing-access purchases. An agent buys an API key with prepaid credits in one payment: <a href="/docs/payments#standing-access">standing access</a>.</p>`;
  return html`<table><caption class="visually-hidden">Standing-access purchases, newest first</caption><thead><tr><th scope="col">Paid</th><th scope="col">Method</th><th scope="col">Paid by</th><th scope="col">Amount</th><th scope="col">Credits</th><th scope="col">Kind</th><th scope="col">Key delivered</th></tr></thead><tbody>${purchases.map(
    (p) => html`<tr><td>${when(p.paidAt)}</td><td>${p.method === 'mpp' ? 'MPP' : 'x402'}</td><td>${payerText(p.payer)}</td><td>${dollars(p.usd * 100)}</td><td>${count(p.credits)}</td><td>${p.topUp ? 'top-up' : 'new key'}</td><td>${p.topUp ? '—' : p.deliveredAt === null ? 'not delivered' : when(p.deliveredAt)}</td></tr>`,
  )}</tbody></table>`;
}

function keysTable(session: DashboardSession, keys: PaymentsView['accessKeys']): Html {
  if (keys.length === 0) return html`<p>No keys were bought through standing access.</p>`;
  const keysPage = `/dashboard/orgs/${encodeURIComponent(session.orgId)}/keys`;
  return html`<table><caption class="visually-hidden">API keys bought through standing access</caption><thead><tr><th scope="col">Name</th><th scope="col">Key starts with</th><th scope="col">Bought by</th><th scope="col">Created</th><th scope="col">State</th></tr></thead><tbody>${keys.map(
    ({ key, payer }) => html`<tr><td>${key.name}</td><td><code>${key.prefix}…</code></td><td>${payerText(payer)}</td><td>${when(key.createdAt)}</td><td>${key.revokedAt === null ? 'active' : `revoked ${when(key.revokedAt)}`}</td></tr>`,
  )}</tbody></table><p class="muted">Revoke a key on the <a href="${keysPage}">API keys</a> page.</p>`;
}

function tokensTable(tokens: readonly McpTokenRecord[], keys: PaymentsView['accessKeys']): Html {
  if (tokens.length === 0) return html`<p>No MCP tokens.</p>`;
  const keyName = new Map(keys.map(({ key }) => [key.id, key.name]));
  return html`<table><caption class="visually-hidden">MCP tokens</caption><thead><tr><th scope="col">Token starts with</th><th scope="col">Bought with key</th><th scope="col">Created</th><th scope="col">State</th></tr></thead><tbody>${tokens.map(
    (t) => html`<tr><td><code>${t.prefix}…</code></td><td>${keyName.get(t.apiKeyId) ?? t.apiKeyId}</td><td>${when(t.createdAt)}</td><td>${t.revokedAt === null ? 'active' : `revoked ${when(t.revokedAt)}`}</td></tr>`,
  )}</tbody></table>`;
}

function grantsTable(grants: readonly CreditGrant[]): Html {
  if (grants.length === 0) return html`<p>No prepaid credits were added.</p>`;
  const reasons: Readonly<Record<string, string>> = { 'access-purchase': 'standing-access purchase', operator: 'added by the operator' };
  return html`<table><caption class="visually-hidden">Prepaid credit grants, newest first</caption><thead><tr><th scope="col">Added</th><th scope="col">Credits</th><th scope="col">Paid</th><th scope="col">Why</th></tr></thead><tbody>${[...grants].reverse().map(
    (g) => html`<tr><td>${when(g.createdAt)}</td><td>${count(g.credits)}</td><td>${g.amountCents === null ? '—' : dollars(g.amountCents)}</td><td>${reasons[g.reason] ?? g.reason}</td></tr>`,
  )}</tbody></table>`;
}

export function paymentsBody(session: DashboardSession, view: PaymentsView): Html {
  const paid = view.purchases.reduce((cents, p) => cents + p.usd * 100, 0);
  return html`<h1>Payments</h1>
    <p>${view.purchases.length} standing-access purchase${view.purchases.length === 1 ? '' : 's'}, ${dollars(paid)} in all${view.purchases.length >= PURCHASES_SHOWN ? ' (the newest 100 shown)' : ''}. Each US dollar bought 20 prepaid credits.</p>
    <h2>Standing-access purchases</h2>${purchasesTable(view.purchases)}
    <h2>Standing-access keys</h2>${keysTable(session, view.accessKeys)}
    <h2>MCP tokens</h2>${tokensTable(view.mcpTokens, view.accessKeys)}
    <h2>Prepaid credits added</h2>${grantsTable(view.grants)}`;
}

const STYLE = ORG_PAGE_STYLE;

export function registerPaymentPages(app: FastifyInstance, deps: AppDeps): void {
  const org = deps.orgPages;

  app.get<{ Params: { orgId: string } }>('/dashboard/orgs/:orgId/payments', async (request, reply) => {
    const session = await requireOrgSession(deps, request, reply, request.params.orgId);
    if (!session) return reply;
    const body = paymentsBody(session, await org.payments.ofOrganization(session.orgId, PURCHASES_SHOWN));
    return dashboardHeaders(reply).send(dashboardPage(session, 'payments', 'Payments', body, STYLE));
  });
}
