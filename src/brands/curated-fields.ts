/**
 * Facts a person set on a brand survive re-crawls: `claimed`, and industries that were set (score 1 — by the
 * `brandbase brands set-industry` command, an import or a content rule). A re-crawl rebuilds everything else
 * from the website. The quality score is recomputed for the merged record, since claimed status counts in it.
 */
import type { Brand, Industry } from '../domain/brand.js';
import { qualityScore } from '../domain/quality-score.js';
import { isNsfwIndustry, sortIndustries } from '../crawl/fields/industries/taxonomy.js';

export const SET_SCORE = 1;

export function isSetIndustry(industry: Industry): boolean {
  return industry.score >= SET_SCORE;
}

/** `next` (fresh from a crawl) with the curated facts of `previous`, scored as of `crawledAt`. */
export function keepCuratedFields(previous: Brand | null, next: Brand, crawledAt: Date, now: Date = crawledAt): Brand {
  if (!previous) return next;
  const setBefore = previous.company.industries.filter(isSetIndustry);
  const industries = setBefore.length ? mergeIndustries(setBefore, next.company.industries) : next.company.industries;
  const merged: Brand = {
    ...next,
    claimed: previous.claimed || next.claimed,
    isNsfw: next.isNsfw || hasSetNsfwIndustry(industries),
    company: { ...next.company, industries },
  };
  return { ...merged, qualityScore: qualityScore({ ...merged, crawledAt, now }) };
}

/** Spec 2.1: isNsfw reflects industry categories; a set adult industry flags the brand. */
export function hasSetNsfwIndustry(industries: Industry[]): boolean {
  return industries.some((i) => isSetIndustry(i) && isNsfwIndustry(i.id));
}

/** Set industries first (score 1), then the predicted ones that are not already set. */
export function mergeIndustries(set: Industry[], other: Industry[]): Industry[] {
  const ids = new Set(set.map((i) => i.id));
  return sortIndustries([...set, ...other.filter((i) => !ids.has(i.id))]);
}
