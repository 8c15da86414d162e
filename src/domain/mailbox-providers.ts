/**
 * Mailbox providers (spec section 1 rule 3: "a mailbox provider's address resolves to the provider's own
 * brand"). The provider list is the `email-providers` package (ISC, data bundled with the package, no
 * network at install). Most provider domains are the provider's own website already; the alias table maps
 * the mail-only domains of the large providers to the domain their brand lives on, so `x@gmail.com` and
 * `x@googlemail.com` both answer Google's brand rather than two half-empty records.
 */
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const PROVIDERS: ReadonlySet<string> = new Set(require('email-providers/all.json') as string[]);

const ALIASES: Readonly<Record<string, string>> = {
  'gmail.com': 'google.com',
  'googlemail.com': 'google.com',
  'hotmail.com': 'microsoft.com',
  'hotmail.co.uk': 'microsoft.com',
  'hotmail.fr': 'microsoft.com',
  'hotmail.de': 'microsoft.com',
  'live.com': 'microsoft.com',
  'msn.com': 'microsoft.com',
  'outlook.com': 'microsoft.com',
  'ymail.com': 'yahoo.com',
  'rocketmail.com': 'yahoo.com',
  'icloud.com': 'apple.com',
  'me.com': 'apple.com',
  'mac.com': 'apple.com',
  'protonmail.com': 'proton.me',
  'protonmail.ch': 'proton.me',
  'pm.me': 'proton.me',
};

export function isMailboxProvider(registrableDomain: string): boolean {
  return PROVIDERS.has(registrableDomain) || registrableDomain in ALIASES;
}

/** The domain of the provider's own brand for a mailbox domain; any other domain is returned unchanged. */
export function providerBrandDomain(registrableDomain: string): string {
  return ALIASES[registrableDomain] ?? registrableDomain;
}
