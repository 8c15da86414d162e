/**
 * Crawls of one revision (bench/compare-revisions.ts): live lookups (`GET /v2/brands/{domain}` with an API key) of
 * domains the tree has never seen, each mapped by the host map to one of the loopback fixture sites, so every lookup
 * is a real crawl (fetch, extraction, image analysis, save) and none is answered from the store. Brands per second
 * at a fixed concurrency.
 */
import { FIXTURE_HOSTS, type FixtureSiteName, type FixtureSites } from '../test/helpers/fixture-sites.js';
import { perSecond, treeUrl, type RevisionTree } from './revision-cli.js';

export const CRAWL_BRANDS = Number(process.env.BENCH_CRAWL_BRANDS ?? 20);
export const CRAWL_CONCURRENCY = Number(process.env.BENCH_CRAWL_CONCURRENCY ?? 4);
/** Static sites that index without rendering or redirects (the redirect, slow, endless and blocked ones are left out). */
export const CRAWL_SITES: FixtureSiteName[] = ['northwind', 'nightjar', 'lumen', 'newname', 'plainfield'];

/** The fresh domains of one run (`label`: the round, or `warm`) of one tree: distinct registrable domains. */
export function crawlDomains(tree: string, label: string): string[] {
  return Array.from({ length: CRAWL_BRANDS }, (_, i) => {
    const site = CRAWL_SITES[i % CRAWL_SITES.length] ?? 'northwind';
    return `c${label}-${tree}-${i}-${FIXTURE_HOSTS[site].replace(/\.test$/, '')}.test`;
  });
}

/** Host map entries sending each fresh domain to the fixture site it stands for. */
export function crawlHostMap(sites: FixtureSites, domains: string[]): Record<string, string> {
  return Object.fromEntries(
    domains.map((domain) => {
      const site = CRAWL_SITES.find((name) => domain.endsWith(`-${FIXTURE_HOSTS[name]}`)) ?? 'northwind';
      return [domain, sites.sites[site].address];
    }),
  );
}

/** Looks each domain up once, CRAWL_CONCURRENCY at a time: brands indexed per second. */
export function crawlRun(tree: RevisionTree, headers: Record<string, string>, domains: string[]): Promise<number> {
  return perSecond(domains.length, CRAWL_CONCURRENCY, async (i) => {
    const domain = domains[i] ?? '';
    const res = await fetch(treeUrl(tree, `/v2/brands/${domain}`), { headers });
    const body = (await res.json()) as { domain?: string };
    if (res.status !== 200) throw new Error(`${tree.name}: crawl of ${domain} answered ${res.status} ${JSON.stringify(body).slice(0, 200)}`);
  });
}
