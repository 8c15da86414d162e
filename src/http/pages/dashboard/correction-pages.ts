/**
 * The merchant corrections page of an organization (issue 34; docs/transactions.md#dashboard): the corrections that
 * apply to its transactions (descriptor, the merchant words it is filed under, country, answer, who filed it and
 * when), a form to file one and a remove button on each; `?removed=1` shows the audit trail. The same operations as
 * `/v2/transactions/corrections`, GraphQL and `brandbase merchants`, through the same service
 * (transactions/corrections/merchant-corrections.ts), recorded with the user's id. Owners and members alike may
 * correct: corrections cost nothing and change only this organization's answers.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../../../domain/errors.js';
import type { MerchantCorrection } from '../../../transactions/corrections/merchant-correction.js';
import type { CorrectionPage } from '../../../transactions/corrections/merchant-corrections.js';
import type { AppDeps } from '../../app-deps.js';
import { html, type Html } from '../html.js';
import { checkCsrf, csrfField, dashboardHeaders, dashboardPage, redirectWithNotice, requireOrgSession, type DashboardSession } from './dashboard-session.js';
import { errorBox, formChecked, formText, when, ORG_PAGE_STYLE } from './org-page-form.js';

type OrgParams = { Params: { orgId: string }; Querystring: { removed?: string; after?: string } };
type IdParams = { Params: { orgId: string; correctionId: string } };

/** Corrections per page. */
const PER_PAGE = 50;
const LABEL_MAX = 256;

/** What a refused form sent, shown again so nothing typed is lost. */
export interface CorrectionDraft {
  transactionLabel: string;
  countryCode: string;
  domain: string;
  notMerchant: boolean;
}

const EMPTY_DRAFT: CorrectionDraft = { transactionLabel: '', countryCode: '', domain: '', notMerchant: false };

function base(orgId: string): string {
  return `/dashboard/orgs/${encodeURIComponent(orgId)}/corrections`;
}

function answer(c: MerchantCorrection): Html {
  return c.domain === null ? html`<em>not a merchant</em>` : html`<code>${c.domain}</code>`;
}

function row(session: DashboardSession, c: MerchantCorrection): Html {
  const state =
    c.removedAt === null
      ? html`<form method="post" action="${base(session.orgId)}/${encodeURIComponent(c.id)}/remove" class="inline">${csrfField(session)}<button type="submit" class="danger" aria-label="Remove the correction of ${c.label} (${c.id})">Remove</button></form>`
      : html`<span class="muted">removed ${when(c.removedAt)} by <code>${c.removedBy ?? ''}</code></span>`;
  return html`<tr><td><code>${c.label}</code><br><span class="muted">words: <code>${c.key}</code></span></td><td>${c.countryCode ?? 'every country'}</td><td>${answer(c)}</td><td>${when(c.createdAt)}<br><span class="muted">by <code>${c.createdBy}</code></span></td><td>${state}</td></tr>`;
}

/** The page's body: the table of corrections (or the audit trail), paging, and the form. */
export function correctionsBody(session: DashboardSession, page: CorrectionPage, removed: boolean, draft: CorrectionDraft, error: string | null): Html {
  const path = base(session.orgId);
  const table =
    page.corrections.length === 0
      ? html`<p>${removed ? 'No corrections yet.' : 'No corrections apply. File one below when a transaction answers the wrong merchant, or a merchant for what is not one.'}</p>`
      : html`<table><caption class="visually-hidden">${removed ? 'Corrections of this organization, removed ones included' : 'Corrections that apply to this organization'}</caption><thead><tr><th scope="col">Descriptor</th><th scope="col">Country</th><th scope="col">Answer</th><th scope="col">Filed</th><th scope="col">Actions</th></tr></thead><tbody>${page.corrections.map((c) => row(session, c))}</tbody></table>`;
  const next = page.endCursor === null ? null : html`<p><a href="${path}?${removed ? 'removed=1&' : ''}after=${encodeURIComponent(page.endCursor)}">Older corrections</a></p>`;
  const toggle = removed ? html`<p><a href="${path}">Only the corrections that apply</a></p>` : html`<p><a href="${path}?removed=1">Show removed corrections too (who removed them, when)</a></p>`;
  return html`<h1>Merchant corrections</h1>
    <p>A correction decides what <a href="/docs/transactions#corrections">POST /v2/brands/transaction</a> answers for your organization's transactions whose descriptor reads to the same merchant words (<code>SQ *BLUE BOTTLE COF 4</code> and <code>SQ *BLUE BOTTLE COF 7</code> alike), before every matching rule, until it is removed. Other organizations never see it.</p>
    ${toggle}${table}${next}
    <h2 id="add">File a correction</h2>${errorBox(error)}
    <form method="post" action="${path}">${csrfField(session)}
    <label for="cor-label">Descriptor, as the statement prints it</label><input id="cor-label" name="transactionLabel" maxlength="${LABEL_MAX}" value="${draft.transactionLabel}" placeholder="SQ *BLUE BOTTLE COF 4" required>
    <label for="cor-country">Country (two letters; empty: every country)</label><input id="cor-country" name="countryCode" maxlength="2" size="3" value="${draft.countryCode}" placeholder="US">
    <label for="cor-domain">Merchant's domain</label><input id="cor-domain" name="domain" maxlength="253" value="${draft.domain}" placeholder="bluebottlecoffee.com">
    <p><input type="checkbox" id="cor-none" name="notMerchant" value="1"${draft.notMerchant ? html` checked` : ''}><label for="cor-none" class="inline-label">Not a merchant: such transactions answer "Failed to enrich transaction" (leave the domain empty)</label></p>
    <button type="submit">File correction</button></form>`;
}

const STYLE = ORG_PAGE_STYLE + 'td form.inline{margin:0}td code{overflow-wrap:anywhere}';

function postedDraft(request: FastifyRequest): CorrectionDraft {
  return { transactionLabel: formText(request, 'transactionLabel'), countryCode: formText(request, 'countryCode'), domain: formText(request, 'domain'), notMerchant: formChecked(request, 'notMerchant') };
}

async function sendPage(deps: AppDeps, session: DashboardSession, reply: FastifyReply, view: { removed: boolean; after: string | null }, draft: CorrectionDraft, error: ApiError | null): Promise<FastifyReply> {
  let page: CorrectionPage;
  try {
    page = await deps.corrections.list(session.orgId, { first: PER_PAGE, after: view.after, includeRemoved: view.removed });
  } catch (refused) {
    // A cursor that is not ours: the first page.
    if (!(refused instanceof ApiError) || refused.code !== 'invalid_cursor') throw refused;
    page = await deps.corrections.list(session.orgId, { first: PER_PAGE, includeRemoved: view.removed });
  }
  return dashboardHeaders(reply)
    .code(error === null ? 200 : error.status)
    .send(dashboardPage(session, 'corrections', 'Merchant corrections', correctionsBody(session, page, view.removed, draft, error === null ? null : `Not saved: ${error.message}`), STYLE));
}

export function registerCorrectionPages(app: FastifyInstance, deps: AppDeps): void {
  app.get<OrgParams>('/dashboard/orgs/:orgId/corrections', async (request, reply) => {
    const session = await requireOrgSession(deps, request, reply, request.params.orgId);
    if (!session) return reply;
    const after = typeof request.query.after === 'string' && request.query.after !== '' ? request.query.after : null;
    return sendPage(deps, session, reply, { removed: request.query.removed === '1', after }, EMPTY_DRAFT, null);
  });

  app.post<OrgParams>('/dashboard/orgs/:orgId/corrections', async (request, reply) => {
    const session = await requireOrgSession(deps, request, reply, request.params.orgId);
    if (!session || !checkCsrf(session, request, reply)) return reply;
    const draft = postedDraft(request);
    // An empty domain field beside the box means "no domain": the service then asks for exactly one of the two.
    const input = { transactionLabel: draft.transactionLabel, countryCode: draft.countryCode || null, domain: draft.domain || null, notMerchant: draft.notMerchant };
    try {
      const { correction, replaced } = await deps.corrections.add(session.orgId, input, session.userId);
      const what = correction.domain ?? 'not a merchant';
      const notice = `Correction ${correction.id} filed: "${correction.key}" → ${what}${replaced ? ` (it replaces ${replaced.id})` : ''}.`;
      return redirectWithNotice(deps, reply, base(session.orgId), notice);
    } catch (error) {
      if (error instanceof ApiError) return sendPage(deps, session, reply, { removed: false, after: null }, draft, error);
      throw error;
    }
  });

  app.post<IdParams>('/dashboard/orgs/:orgId/corrections/:correctionId/remove', async (request, reply) => {
    const session = await requireOrgSession(deps, request, reply, request.params.orgId);
    if (!session || !checkCsrf(session, request, reply)) return reply;
    try {
      const removed = await deps.corrections.remove(session.orgId, request.params.correctionId, session.userId);
      return redirectWithNotice(deps, reply, base(session.orgId), `Correction ${removed.id} removed: the rules answer "${removed.key}" again.`);
    } catch (error) {
      if (error instanceof ApiError && error.code === 'correction_not_found') {
        const body = html`<h1>Not found</h1><p>There is no such correction, or it was removed already. <a href="${base(session.orgId)}">Back to corrections</a></p>`;
        return dashboardHeaders(reply).code(404).send(dashboardPage(session, 'corrections', 'Not found', body, STYLE));
      }
      throw error;
    }
  });
}
