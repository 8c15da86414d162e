/**
 * One entry of `GET /v2/search/{name}` (issue 20, docs/search.md): the answer's shape, shared by the search service
 * (src/search/) that builds it and the use case (src/usecases/search-brands.ts) that declares the port it calls.
 */
export interface SearchHit {
  name: string;
  domain: string;
  claimed: boolean;
  /** URL of the held brand's icon; null when the brand is not crawled yet (or has none). */
  icon: string | null;
  /** The held brand's ID; null when the domain is not crawled yet (looking it up queues the crawl). */
  brandId: string | null;
  qualityScore: number | null;
}
