/**
 * Operator curation of a brand's industries (`brandbase brands set-industry`): the named taxonomy industries
 * are set with score 1 (spec 2.7: 1 marks an industry that was set rather than predicted), each sub-industry
 * together with its top-level industry; predicted industries stay listed after them. `clear` removes the set
 * industries and keeps the predicted ones. Nothing is crawled: a brand not held is an error. Setting the adult
 * industry sets isNsfw.
 */
import type { Industry } from '../domain/brand.js';
import type { BrandStore, StoredBrand } from './brand-store.js';
import { taxonomyEntry, withParent } from '../crawl/fields/industries/taxonomy.js';
import { hasSetNsfwIndustry, isSetIndustry, mergeIndustries, SET_SCORE } from './curated-fields.js';

export class UnknownIndustryError extends Error {
  constructor(readonly names: string[]) {
    super(`unknown industr${names.length === 1 ? 'y' : 'ies'}: ${names.join(', ')} (see \`brandbase brands industries\`)`);
    this.name = 'UnknownIndustryError';
  }
}

export class BrandNotHeldError extends Error {
  constructor(readonly domain: string) {
    super(`no brand is held for ${domain}; index it first with \`brandbase crawl ${domain}\``);
    this.name = 'BrandNotHeldError';
  }
}

/** Industries for slugs or ids, each with its parent, score 1. Throws UnknownIndustryError. */
export function setIndustries(slugsOrIds: string[]): Industry[] {
  const unknown = slugsOrIds.filter((s) => !taxonomyEntry(s.trim().toLowerCase()) && !taxonomyEntry(s.trim()));
  if (unknown.length) throw new UnknownIndustryError(unknown);
  return slugsOrIds.flatMap((s) => {
    const entry = taxonomyEntry(s.trim()) ?? taxonomyEntry(s.trim().toLowerCase());
    return entry ? withParent(entry.id, SET_SCORE) : [];
  });
}

export interface SetIndustryInput {
  domain: string;
  industries: string[];
  clear?: boolean;
  now?: Date;
}

export async function setBrandIndustries(store: Pick<BrandStore, 'findBrandByIdentifier' | 'saveBrand' | 'listIdentifiers'>, input: SetIndustryInput): Promise<StoredBrand> {
  const stored = await store.findBrandByIdentifier({ kind: 'domain', value: input.domain });
  if (!stored) throw new BrandNotHeldError(input.domain);
  const predicted = stored.brand.company.industries.filter((i) => !isSetIndustry(i));
  const kept = input.clear ? [] : stored.brand.company.industries.filter(isSetIndustry);
  const industries = mergeIndustries(mergeIndustries(setIndustries(input.industries), kept), predicted);
  // Setting an adult industry flags the brand (spec 2.1); clearing one leaves the flag to the next crawl's evidence.
  const brand = { ...stored.brand, isNsfw: stored.brand.isNsfw || hasSetNsfwIndustry(industries), company: { ...stored.brand.company, industries } };
  const updated: StoredBrand = { ...stored, brand, updatedAt: input.now ?? new Date() };
  await store.saveBrand(updated, await store.listIdentifiers(brand.id));
  return updated;
}
