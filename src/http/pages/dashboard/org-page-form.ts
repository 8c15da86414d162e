/**
 * Small helpers the organization pages share (issue 23): reading urlencoded form fields (a value or a list of
 * values, as the dashboard's body parser hands them over), the owner-only rule for changes, and how dates, money
 * and counts read on the pages.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { html, page, type Html } from '../html.js';
import { dashboardHeaders, type DashboardSession } from './dashboard-session.js';

/** The posted form as the dashboard's urlencoded parser leaves it; anything else reads as an empty form. */
function fields(request: FastifyRequest): Record<string, unknown> {
  const body = request.body;
  if (body instanceof URLSearchParams) return Object.fromEntries([...new Set(body.keys())].map((k) => [k, body.getAll(k)]));
  return body !== null && typeof body === 'object' ? (body as Record<string, unknown>) : {};
}

/** Every value of a field, in order (checkboxes sharing a name come as a list). */
export function formAll(request: FastifyRequest, name: string): string[] {
  const value = fields(request)[name];
  if (typeof value === 'string') return [value];
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

/** The field's first value, trimmed; '' when absent. */
export function formText(request: FastifyRequest, name: string): string {
  return (formAll(request, name)[0] ?? '').trim();
}

/** A checkbox: present (any value) means on. */
export function formChecked(request: FastifyRequest, name: string): boolean {
  return formAll(request, name).length > 0;
}

/** Lines and commas both separate entries of a list field (referrers, domains, emails); blanks are dropped. */
export function formLines(request: FastifyRequest, name: string): string[] {
  return formAll(request, name)
    .flatMap((v) => v.split(/[\n,]/))
    .map((v) => v.trim())
    .filter((v) => v !== '');
}

/**
 * Changes to billing and webhooks are an owner's (issue 23: members may look, owners change what costs money or
 * sends data out); a member's post answers 403 with this page, whatever the form.
 */
export function ownerOnly(session: DashboardSession, reply: FastifyReply): boolean {
  if (session.role === 'owner') return true;
  const body = html`<h1>Owners only</h1><p>Only an owner of this organization can change this. Ask an owner, or go back.</p>`;
  void dashboardHeaders(reply).code(403).send(page({ title: 'Owners only', body }));
  return false;
}

/** An error box for a refused form (status 400 pages keep what was typed). */
export function errorBox(message: string | null): Html | null {
  return message === null ? null : html`<p class="error" role="alert">${message}</p>`;
}

/** A UTC date and time as people read it: `2026-11-28 12:34 UTC`. */
export function when(date: Date | null): string {
  return date === null ? '—' : `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/** Integer cents as dollars: `$12.30`. */
export function dollars(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  return `${sign}$${Math.floor(abs / 100).toLocaleString('en-US')}.${String(abs % 100).padStart(2, '0')}`;
}

/** Thousands separators for counts of credits and requests. */
export function count(n: number): string {
  return n.toLocaleString('en-US');
}

/**
 * CSS the organization pages share: text for screen readers only (positioned inside its table, so a hidden label in
 * a scrolling table never widens the page on a phone), and checkbox labels on one line with their box.
 */
export const ORG_PAGE_STYLE =
  'table{position:relative}.visually-hidden{position:absolute;left:0;top:0;width:1px;height:1px;overflow:hidden;clip-path:inset(50%);white-space:nowrap}.inline-label{display:inline;font-weight:400}ul.plain{list-style:none;margin:0;padding:0}';
