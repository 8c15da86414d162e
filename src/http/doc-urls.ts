/**
 * The documentation sections the service's answers link to: pages served by routes/docs-route.ts from docs/*.md,
 * anchors from their headings. test/http/links.test.ts follows every link an answer carries, so a renamed heading
 * fails a test instead of sending clients to nothing.
 */
export const DOC_SECTIONS = {
  /** Pay per request (x402, MPP): what a 402 means and what is built. */
  payments: 'payments',
  /** Standing access: the offer at /v2/agents/access. */
  standingAccess: 'billing#standing-access',
  /** The billing rule: only what a request returns is charged. */
  charges: 'billing#what-is-charged',
  errors: 'errors',
  /** Search by name and client IDs (issue 20). */
  search: 'search',
  /** The logo CDN: client IDs, referrers and refusals (403 bodies link here). */
  logoCdn: 'logo-cdn#refusals',
  index: '',
} as const;

export type DocSection = keyof typeof DOC_SECTIONS;

export function docUrl(publicUrl: string, section: DocSection): string {
  const target = DOC_SECTIONS[section];
  return target === '' ? `${publicUrl}/docs` : `${publicUrl}/docs/${target}`;
}

/** The interactive API reference (Swagger UI), beside the documentation pages; the document is /openapi.json. */
export const API_REFERENCE_PATH = '/docs/api';
