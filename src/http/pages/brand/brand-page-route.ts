/**
 * GET /brands/{domain}: the public page of a held brand (issue 23 item 3, ADR 0044). No credential, never a credit,
 * never a crawl: a brand not held answers a 404 page with a search box. A domain written another way (upper case,
 * `www.`) is redirected to its canonical page.
 */
import type { FastifyInstance } from 'fastify';
import { parseTypedIdentifier } from '../../../domain/identifiers.js';
import type { BrandPageDeps, BrandPageRecord } from './brand-page-deps.js';
import { brandPage } from './brand-page-view.js';
import { invalidDomainPage, notHeldPage } from './brand-search-view.js';
import { BRAND_PAGE_MAX_AGE_SECONDS, sendPage } from './page-reply.js';

/** Pages rendered per record object: the reads reuse a record while its brand is unchanged (brands/brand-page-reads.ts). */
const rendered = new WeakMap<BrandPageRecord, string>();

function renderedPage(record: BrandPageRecord): string {
  let body = rendered.get(record);
  if (body === undefined) {
    body = brandPage(record);
    rendered.set(record, body);
  }
  return body;
}

export function registerBrandPageRoute(app: FastifyInstance, deps: BrandPageDeps): void {
  app.get<{ Params: { domain: string } }>('/brands/:domain', { schema: { hide: true } }, async (request, reply) => {
    const parsed = parseTypedIdentifier('domain', request.params.domain);
    const reading = parsed.ok ? parsed.readings.primary : null;
    if (reading?.kind !== 'domain') return sendPage(request, reply, 404, invalidDomainPage(), { assetOrigin: null, cacheControl: 'no-cache' });
    const domain = reading.domain;
    if (domain !== request.params.domain) return reply.redirect(`/brands/${encodeURIComponent(domain)}`, 301);
    request.resolvedDomain = domain;
    const record = await deps.read(domain);
    if (!record) return sendPage(request, reply, 404, notHeldPage(domain), { assetOrigin: null, cacheControl: 'public, max-age=10' });
    return sendPage(request, reply, 200, renderedPage(record), { assetOrigin: deps.assetOrigin, cacheControl: `public, max-age=${BRAND_PAGE_MAX_AGE_SECONDS}` });
  });
}
