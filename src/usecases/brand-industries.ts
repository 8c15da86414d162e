import type { Brand, Industry } from '../domain/brand.js';
import type { Readings } from '../domain/identifiers.js';
import { charged, type Charged, type Payer } from './payer.js';
import type { UseCaseDeps } from './use-case-deps.js';

export type IndustriesAnswer =
  | { status: 'found'; industries: Industry[]; brand: Brand; domain: string | null }
  | { status: 'not_found'; domain: string | null };

interface Industries {
  deps: UseCaseDeps;
  readings: Readings;
}

async function readIndustries({ deps, readings }: Industries): Promise<IndustriesAnswer> {
  const domain = readings.primary.kind === 'domain' ? readings.primary.domain : null;
  const known = await deps.lookup.state(readings, { resolve: true });
  if (known.state !== 'held') return { status: 'not_found', domain };
  const brand = known.brand.stored.brand;
  return { status: 'found', industries: brand.company.industries, brand, domain };
}

function industriesCost({ deps }: Industries, answer: IndustriesAnswer): number {
  return answer.status === 'found' ? deps.rule.brandCost(answer.brand) : 0;
}

/**
 * The industries of a held brand (spec 4.5): it reads what is held, never crawls or queues. Charged like a
 * lookup: one credit when it answers, nothing otherwise (docs/spec-decisions.md).
 */
export function brandIndustries(deps: UseCaseDeps, payer: Payer, readings: Readings): Promise<Charged<IndustriesAnswer>> {
  return charged(deps.rule.payerFor(payer, readings), 1, 'single', 'brand.industries', { deps, readings }, readIndustries, industriesCost);
}
