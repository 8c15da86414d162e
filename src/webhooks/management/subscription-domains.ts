/**
 * The `domains` argument of addWebhookSubscriptions / removeWebhookSubscriptions (spec 6 rule 5, spec 8): at most
 * 1,000 entries per call (more: 400 `too_many_domains`, nothing written), each read like the domain route reads
 * its identifier, so a subdomain stands for its registrable domain (`shop.acme.co.uk` → `acme.co.uk`). Entries that
 * are not domains are reported one by one, never silently dropped.
 */
import { ApiError } from '../../domain/errors.js';
import { parseTypedIdentifier } from '../../domain/identifiers.js';

export const MAX_DOMAINS_PER_CALL = 1000;

export interface InvalidDomain {
  input: string;
  message: string;
}

export interface DomainList {
  /** Registrable domains, deduplicated, in input order. */
  domains: string[];
  invalid: InvalidDomain[];
}

/** An invalid entry is echoed back cut to this length (the input is the caller's own). */
const ECHO_MAX = 256;

export function subscriptionDomains(inputs: readonly string[]): DomainList {
  if (inputs.length > MAX_DOMAINS_PER_CALL) throw new ApiError('too_many_domains');
  const domains = new Set<string>();
  const invalid: InvalidDomain[] = [];
  for (const input of inputs) {
    const parsed = parseTypedIdentifier('domain', input);
    if (parsed.ok && parsed.readings.primary.kind === 'domain') domains.add(parsed.readings.primary.domain);
    else invalid.push({ input: input.slice(0, ECHO_MAX), message: parsed.ok ? 'Invalid domain.' : parsed.message });
  }
  return { domains: [...domains], invalid };
}
