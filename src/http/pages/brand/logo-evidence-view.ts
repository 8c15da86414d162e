/** "Why this logo" (ADR 0044): the candidates the latest crawl weighed, their score and outcome, as a table. */
import { LOGO_REASON_TEXT, type LogoCandidateSource, type LogoCandidateTrace, type LogoEvidence } from '../../../domain/logo-evidence.js';
import { html, type Html } from '../html.js';

const SOURCE_TEXT: Readonly<Record<LogoCandidateSource, string>> = {
  'link-icon': '<link rel="icon">',
  'apple-touch-icon': '<link rel="apple-touch-icon">',
  'mask-icon': '<link rel="mask-icon">',
  'fluid-icon': '<link rel="fluid-icon">',
  'ms-tile': 'Windows tile <meta>',
  'manifest-icon': 'web manifest icon',
  'favicon-fallback': '/favicon.ico (nothing declared)',
  'conventional-path': '/apple-touch-icon.png (probed)',
  'meta-logo': 'og:logo / itemprop="logo"',
  'json-ld-logo': 'JSON-LD Organization.logo',
  'header-img': 'header <img>',
  'header-svg': 'header inline <svg>',
  'picture-source': '<picture> <source> for a colour scheme',
  'css-background': 'CSS background image',
};

export function logoEvidenceSection(evidence: LogoEvidence | null): Html {
  const body =
    evidence && evidence.candidates.length > 0
      ? html`<p>The candidates the latest crawl weighed, marks first (by score), then icons. The record keeps the chosen files.</p>${evidenceTable(evidence.candidates)}`
      : html`<p class="muted">No trace is kept for this brand yet: it was indexed before logo decisions were recorded, or its site offered no candidate. The next crawl records one.</p>`;
  return html`<section aria-labelledby="why-logo"><h2 id="why-logo">Why this logo</h2>${body}</section>`;
}

function evidenceTable(candidates: readonly LogoCandidateTrace[]): Html {
  return html`<table class="evidence"><thead><tr><th scope="col">Candidate</th><th scope="col">File</th><th scope="col">Score</th><th scope="col">Outcome</th></tr></thead><tbody>${candidates.map(row)}</tbody></table>`;
}

function row(c: LogoCandidateTrace): Html {
  const file = c.format ? `${c.format.toUpperCase()}${c.width && c.height ? ` ${c.width} × ${c.height}` : ''}` : 'unreadable';
  const scheme = c.scheme ? html` <span class="muted">(${c.scheme} scheme)</span>` : '';
  const outcome =
    c.outcome === 'chosen'
      ? html`<strong>Chosen as ${c.role ?? 'logo'}</strong>: ${LOGO_REASON_TEXT[c.reason] ?? c.reason}`
      : html`Rejected: ${LOGO_REASON_TEXT[c.reason] ?? c.reason}`;
  return html`<tr data-outcome="${c.outcome}" data-reason="${c.reason}"><td>${SOURCE_TEXT[c.source] ?? c.source}${scheme}</td><td>${file}</td><td>${c.score ?? 'n/a'}</td><td>${outcome}</td></tr>`;
}
