/**
 * The usage page of an organization (issue 23; docs/dashboard.md#usage): the billing period, credits used against
 * the quota, the prepaid balance, overage so far in credits and money (docs/billing.md: 0.10 US dollars a credit
 * beyond the quota and the prepaid balance, paid plans only, up to the spending limit), and the daily chart with its
 * table. Read-only, for owners and members alike. The totals come from the billing meter (exact, this process's
 * buffer included); the days from the ledger after the meter has flushed.
 */
import type { FastifyInstance } from 'fastify';
import { billingPeriod } from '../../../billing/billing-period.js';
import type { UsageReport } from '../../../billing/billing.js';
import type { AppDeps } from '../../app-deps.js';
import { html, type Html } from '../html.js';
import { dashboardHeaders, dashboardPage, requireOrgSession, sendNotFound, type DashboardSession } from './dashboard-session.js';
import { count, dollars, ORG_PAGE_STYLE } from './org-page-form.js';
import { usageChart, usageDays, usageTable, type UsageDay } from './usage-chart.js';

const DAY_MS = 86_400_000;

function overageLine(report: UsageReport): Html {
  if (report.plan !== 'paid') return html`Overage is not available on the free plan: past the quota and the prepaid credits, requests answer 429.`;
  if (!report.overageAllowed) return html`Overage is off (spending limit $0): past the quota and the prepaid credits, requests answer 429.`;
  return html`${count(report.overageCredits)} credits, <strong>${dollars(report.overageCents)}</strong> so far of the ${dollars(report.spendingLimitCents)} monthly spending limit.`;
}

/** The page body: summary, chart and table. */
export function usageBody(session: DashboardSession, report: UsageReport, days: readonly UsageDay[], periodDays: number): Html {
  const start = report.period.start.slice(0, 10);
  const lastDay = new Date(Date.parse(report.period.end) - DAY_MS).toISOString().slice(0, 10);
  const left = Math.max(0, report.quota - report.quotaUsed);
  const billingLink = `/dashboard/orgs/${encodeURIComponent(session.orgId)}/billing`;
  return html`<h1>Usage</h1>
    <p>Billing period <strong>${report.period.key}</strong>: ${start} to ${lastDay} (UTC). Plan: ${report.plan}.</p>
    <div class="cards">
      <div class="card"><h2>Credits used</h2><p class="big">${count(report.used)}</p><p class="muted">all sources, this period</p></div>
      <div class="card"><h2>Quota</h2><p><label for="quota-meter">${count(report.quotaUsed)} of ${count(report.quota)} used</label><meter id="quota-meter" min="0" max="${Math.max(report.quota, 1)}" value="${Math.min(report.quotaUsed, Math.max(report.quota, 1))}">${count(report.quotaUsed)} of ${count(report.quota)}</meter></p><p class="muted">${count(left)} left this period</p></div>
      <div class="card"><h2>Prepaid credits</h2><p class="big">${count(report.prepaidBalance)}</p><p class="muted">left (they carry over); ${count(report.prepaidUsed)} used this period</p></div>
      <div class="card"><h2>Overage so far</h2><p>${overageLine(report)}</p><p class="muted"><a href="${billingLink}">Spending limit and contacts</a></p></div>
    </div>
    <h2>Credits this period</h2>
    <figure class="chart">${usageChart({ periodKey: report.period.key, periodDays, days, quota: report.quota, overageCredits: report.overageCredits })}
    <figcaption class="muted">Blue: credits used so far (cumulative). Red: the period quota. Dashed: an even pace to the quota.</figcaption></figure>
    ${usageTable(days)}`;
}

const STYLE = ORG_PAGE_STYLE + '.big{font-size:1.6rem;font-weight:700;margin:.25rem 0}.card h2{font-size:1rem;margin:.25rem 0}meter{width:100%;height:1.25rem}figure.chart{margin:1rem 0}.usage-chart{width:100%;height:auto}';

export function registerUsagePages(app: FastifyInstance, deps: AppDeps): void {
  const org = deps.orgPages;

  app.get<{ Params: { orgId: string } }>('/dashboard/orgs/:orgId/usage', async (request, reply) => {
    const session = await requireOrgSession(deps, request, reply, request.params.orgId);
    if (!session) return reply;
    const organization = await org.accounts.getOrganization(session.orgId);
    if (!organization) return sendNotFound(reply);
    // The report flushes this process's usage buffer first, so the ledger read after it holds every charge made here.
    const report = await org.usageReport(organization);
    const period = billingPeriod(new Date(report.period.start));
    const daily = await org.billingAdmin.dailyUsage(organization.id, period.start, period.end);
    const days = usageDays(period.start, period.end, org.now(), daily);
    const periodDays = Math.round((period.end.getTime() - period.start.getTime()) / DAY_MS);
    return dashboardHeaders(reply).send(dashboardPage(session, 'usage', 'Usage', usageBody(session, report, days, periodDays), STYLE));
  });
}
