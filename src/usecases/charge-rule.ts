/**
 * The billing rule of section 7 and the operator's free domain (docs/billing.md), in one place for every use
 * case and transport: only a returned brand is charged, one credit per distinct brand (a batch charges a brand
 * it returns twice once), and the operator's own brand is free whoever asks for it.
 */
import type { Brand } from '../domain/brand.js';
import { registrableDomain, type Readings } from '../domain/identifiers.js';
import { freeFor } from './free-payer.js';
import type { Payer } from './payer.js';

export class ChargeRule {
  /** The operator's own registrable domain, or null. */
  readonly operatorDomain: string | null;

  /** `operator`: BRANDBASE_OPERATOR_DOMAIN as configured (`www.example.com` counts as `example.com`), or null. */
  constructor(operator: string | null) {
    this.operatorDomain = operator ? (registrableDomain(operator) ?? operator.toLowerCase()) : null;
  }

  /**
   * Whether `domain` (a registrable domain, as brands and webhook deliveries carry it) is the operator's own: the
   * one comparison lookups, use cases and webhook delivery billing share (spec section 6 rule 6).
   */
  isOperatorDomain(domain: string | null): boolean {
    return this.operatorDomain !== null && domain === this.operatorDomain;
  }

  /** A request for the operator's own domain holds nothing, so it answers even with the quota exhausted. */
  payerFor(payer: Payer, readings: Readings): Payer {
    const primary = readings.primary;
    return primary.kind === 'domain' && this.isOperatorDomain(primary.domain) ? freeFor(payer) : payer;
  }

  /** What returning `brand` costs: one credit, none for the operator's own brand. */
  brandCost(brand: Pick<Brand, 'domain'>): 0 | 1 {
    return this.isOperatorDomain(brand.domain) ? 0 : 1;
  }

  /** The credits a set of returned brands costs: each distinct charged brand once. */
  brandsCost(brands: Iterable<Pick<Brand, 'id' | 'domain'>>): number {
    const ids = new Set<string>();
    for (const brand of brands) if (this.brandCost(brand) > 0) ids.add(brand.id);
    return ids.size;
  }
}
