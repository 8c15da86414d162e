/**
 * The usage chart of the dashboard (issue 23), drawn on the server as inline SVG (no script, no CDN): credits used
 * so far this billing period as a cumulative line, one point per UTC day, against the period quota (a horizontal
 * line) and an even pace to it (a dashed diagonal from nothing on the first day to the quota on the last). A
 * cumulative line answers the question people ask ("will we run out before the month ends?") at a glance; the part
 * above the quota line is overage. The same numbers are in the table under the chart, for screen readers and for
 * reading without CSS; the SVG carries a <title> and a <desc> that say the totals in words.
 */
import type { DailyUsage } from '../../../billing/billing-admin.js';
import { html, raw, type Html } from '../html.js';

const DAY_MS = 86_400_000;
const WIDTH = 720;
const HEIGHT = 260;
const PAD = { left: 64, right: 16, top: 16, bottom: 40 };

export interface UsageDay extends DailyUsage {
  total: number;
  /** Credits used from the period's start through the end of this day. */
  cumulative: number;
}

/** Every day of the period from its first through `today` (at most the last), with its sums and running total. */
export function usageDays(periodStart: Date, periodEnd: Date, today: Date, days: readonly DailyUsage[]): UsageDay[] {
  const byDay = new Map(days.map((d) => [d.day, d]));
  const last = Math.min(today.getTime(), periodEnd.getTime() - 1);
  const out: UsageDay[] = [];
  let cumulative = 0;
  for (let t = periodStart.getTime(); t <= last; t += DAY_MS) {
    const day = new Date(t).toISOString().slice(0, 10);
    const d = byDay.get(day) ?? { day, quota: 0, prepaid: 0, overage: 0 };
    const total = d.quota + d.prepaid + d.overage;
    cumulative += total;
    out.push({ ...d, day, total, cumulative });
  }
  return out;
}

/** A round axis maximum at or above `value`: 1, 2 or 5 times a power of ten. */
export function axisMax(value: number): number {
  if (value <= 0) return 10;
  const power = 10 ** Math.floor(Math.log10(value));
  for (const step of [1, 2, 5, 10]) if (step * power >= value) return step * power;
  return 10 * power;
}

function fmt(n: number): string {
  return n.toLocaleString('en-US');
}

export interface UsageChartInput {
  periodKey: string;
  /** Days in the billing period (28 to 31). */
  periodDays: number;
  days: readonly UsageDay[];
  quota: number;
  overageCredits: number;
}

/** The SVG; `raw` is safe here: every value written into it is a number or a fixed string of ours. */
export function usageChart(input: UsageChartInput): Html {
  const used = input.days.at(-1)?.cumulative ?? 0;
  const top = axisMax(Math.max(input.quota, used) * 1.1);
  const plotW = WIDTH - PAD.left - PAD.right;
  const plotH = HEIGHT - PAD.top - PAD.bottom;
  const x = (day: number): number => PAD.left + (plotW * day) / input.periodDays;
  const y = (credits: number): number => PAD.top + plotH - (plotH * credits) / top;
  const r = (n: number): string => n.toFixed(1);

  const points = [`${r(x(0))},${r(y(0))}`, ...input.days.map((d, i) => `${r(x(i + 1))},${r(y(d.cumulative))}`)];
  const area = `M${points.join(' L')} L${r(x(input.days.length))},${r(y(0))} Z`;
  const yTicks = [0, top / 2, top].map(
    (v) => `<line x1="${PAD.left}" x2="${WIDTH - PAD.right}" y1="${r(y(v))}" y2="${r(y(v))}" stroke="#d4d4d8"/><text x="${PAD.left - 6}" y="${r(y(v) + 4)}" text-anchor="end">${fmt(v)}</text>`,
  );
  const xTicks = [1, 8, 15, 22, input.periodDays].map(
    (d) => `<text x="${r(x(d - 0.5))}" y="${HEIGHT - PAD.bottom + 16}" text-anchor="middle">${d}</text>`,
  );
  const quotaLine =
    input.quota > 0
      ? `<line x1="${PAD.left}" x2="${WIDTH - PAD.right}" y1="${r(y(input.quota))}" y2="${r(y(input.quota))}" stroke="#b91c1c" stroke-width="2"/>` +
        `<text x="${WIDTH - PAD.right - 4}" y="${r(y(input.quota) - 6)}" text-anchor="end" fill="#991b1b">quota ${fmt(input.quota)}</text>` +
        `<line x1="${r(x(0))}" y1="${r(y(0))}" x2="${r(x(input.periodDays))}" y2="${r(y(input.quota))}" stroke="#52525b" stroke-dasharray="6 5"/>`
      : '';
  const overage = input.overageCredits > 0 ? `, ${fmt(input.overageCredits)} of them overage` : '';
  const desc = `${fmt(used)} credits used in ${input.days.length} of ${input.periodDays} days${overage}; the quota is ${fmt(input.quota)} credits. The dashed line is an even pace to the quota by the end of the period.`;
  const svg =
    `<svg class="usage-chart" viewBox="0 0 ${WIDTH} ${HEIGHT}" width="${WIDTH}" height="${HEIGHT}" role="img" aria-labelledby="usage-chart-title usage-chart-desc" font-family="system-ui,sans-serif" font-size="12" fill="#3f3f46">` +
    `<title id="usage-chart-title">Credits used in ${input.periodKey}, cumulative, against the quota</title><desc id="usage-chart-desc">${desc}</desc>` +
    yTicks.join('') +
    `<path d="${area}" fill="#1d4ed8" fill-opacity="0.15" stroke="none"/><polyline points="${points.join(' ')}" fill="none" stroke="#1d4ed8" stroke-width="2.5"/>` +
    quotaLine +
    xTicks.join('') +
    `<text x="${r(PAD.left + plotW / 2)}" y="${HEIGHT - 6}" text-anchor="middle">day of ${input.periodKey} (UTC)</text>` +
    `</svg>`;
  return raw(svg);
}

/** The same numbers as a table (screen readers, no CSS, copying). */
export function usageTable(days: readonly UsageDay[]): Html {
  if (days.length === 0) return html`<p>No days in this period yet.</p>`;
  return html`<table><caption>Credits per day (UTC)</caption><thead><tr><th scope="col">Day</th><th scope="col">From quota</th><th scope="col">Prepaid</th><th scope="col">Overage</th><th scope="col">Day total</th><th scope="col">Period so far</th></tr></thead><tbody>${days.map(
    (d) => html`<tr><th scope="row">${d.day}</th><td>${fmt(d.quota)}</td><td>${fmt(d.prepaid)}</td><td>${fmt(d.overage)}</td><td>${fmt(d.total)}</td><td>${fmt(d.cumulative)}</td></tr>`,
  )}</tbody></table>`;
}
