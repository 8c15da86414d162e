/** The whole public page of one brand (`/brands/{domain}`): a function of the record, nothing else. */
import { html, page } from '../html.js';
import type { BrandPageRecord } from './brand-page-deps.js';
import { colorsSection, companySection, fontsSection, imagesSection, industriesSection, linksSection, paletteSection } from './brand-facts-views.js';
import { logoEvidenceSection } from './logo-evidence-view.js';
import { logosSection, primaryLogo, primaryLogoView } from './logo-views.js';
import { brandsNav, searchForm } from './brand-search-view.js';
import { BRAND_PAGE_STYLE } from './brand-page-style.js';

export const COPY_SCRIPT_PATH = '/brands/_assets/copy-url.js';

export function brandPage(record: BrandPageRecord): string {
  const { brand } = record;
  const name = brand.name ?? brand.domain;
  const crawled = record.crawledAt.toISOString().slice(0, 10);
  return page({
    title: name,
    nav: brandsNav(),
    style: BRAND_PAGE_STYLE,
    body: html`<h1>${name}</h1>
<p class="lead"><code>${brand.domain}</code>${brand.claimed ? ' · claimed by the brand' : ''} · quality score ${brand.qualityScore.toFixed(2)} · indexed ${crawled}</p>
${brand.description ? html`<p>${brand.description}</p>` : ''}
${primaryLogoView(name, primaryLogo(brand.logos))}
${logosSection(name, brand.logos)}
${logoEvidenceSection(record.logoEvidence)}
${colorsSection(brand.colors)}
${paletteSection(record.palette)}
${fontsSection(brand.fonts)}
${imagesSection(name, brand.images)}
${companySection(brand.company)}
${industriesSection(brand.company)}
${linksSection(brand)}
<section aria-labelledby="api"><h2 id="api">In the API</h2><p><code>GET /v2/brands/${brand.domain}</code> answers this record as JSON (brand ID <code>${brand.id}</code>).</p></section>
${searchForm('')}
<script src="${COPY_SCRIPT_PATH}" defer></script>`,
  });
}
