import { describe, expect, it } from 'vitest';
import { isValidIsin, parseIdentifier, parseTypedIdentifier, registrableDomain, type Identifier } from '../../src/domain/identifiers.js';
import { brandIdForDomain } from '../../src/domain/ids.js';

function primary(input: string): Identifier {
  const result = parseIdentifier(input);
  if (!result.ok) throw new Error(`expected ${input} to parse: ${result.message}`);
  return result.readings.primary;
}

function rejected(input: string): string {
  const result = parseIdentifier(input);
  if (result.ok) throw new Error(`expected ${input} to be rejected, got ${JSON.stringify(result.readings)}`);
  return result.message;
}

describe('rule 1: website URLs resolve to the registrable domain', () => {
  it.each([
    ['https://www.acme.com/about?x=1#y', 'acme.com'],
    ['http://acme.com', 'acme.com'],
    ['HTTPS://WWW.ACME.COM/', 'acme.com'],
    ['https://shop.acme.co.uk:8443/cart', 'acme.co.uk'],
    ['acme.com/pricing', 'acme.com'],
    ['acme.com:8080', 'acme.com'],
    ['www.acme.com/?ref=x', 'acme.com'],
    ['https%3A%2F%2Fwww.acme.com%2Fabout', 'acme.com'],
    ['https://bücher.de/katalog', 'xn--bcher-kva.de'],
    ['https://acme.com./', 'acme.com'],
  ])('%s → %s', (input, domain) => {
    expect(primary(input)).toEqual({ kind: 'domain', domain, source: 'url' });
  });
});

describe('rule 2: a website URL whose host is not a domain name answers 400', () => {
  it.each(['http://127.0.0.1/', 'https://[::1]/', 'http://localhost:8080/', 'http://10.0.0.1/admin', 'https://com/', 'http://2130706433/', 'https://exa_mple.com/'])(
    '%s',
    (input) => {
      expect(rejected(input)).toMatch(/website URL/i);
    },
  );
});

describe('rule 3: email addresses resolve to the registrable domain of the address', () => {
  it.each([
    ['jane@acme.com', 'acme.com'],
    ['Jane.Doe@Mail.ACME.co.uk', 'acme.co.uk'],
    ['jane%40acme.com', 'acme.com'],
    ['jane%2540acme.com', 'acme.com'],
    [' jane@acme.com ', 'acme.com'],
  ])('%s → %s', (input, domain) => {
    expect(primary(input)).toEqual({ kind: 'domain', domain, source: 'email' });
  });

  it("a mailbox provider's address resolves to the provider's own brand", () => {
    expect(primary('someone@gmail.com')).toMatchObject({ domain: 'google.com' });
    expect(primary('someone@googlemail.com')).toMatchObject({ domain: 'google.com' });
    expect(primary('x@hotmail.com')).toMatchObject({ domain: 'microsoft.com' });
    expect(primary('x@yahoo.com')).toMatchObject({ domain: 'yahoo.com' });
  });

  it.each(['@acme.com', 'jane@', 'jane@localhost', 'jane@@acme.com', 'jane..doe@acme.com', 'jane@127.0.0.1', `${'a'.repeat(65)}@acme.com`])(
    'malformed %s answers 400',
    (input) => {
      expect(rejected(input)).toMatch(/email/i);
    },
  );
});

describe('domains', () => {
  it.each([
    ['acme.com', 'acme.com'],
    ['ACME.COM', 'acme.com'],
    ['www.acme.com', 'acme.com'],
    ['acme.com.', 'acme.com'],
    ['blog.acme.co.uk', 'acme.co.uk'],
    ['xn--bcher-kva.de', 'xn--bcher-kva.de'],
    ['bücher.de', 'xn--bcher-kva.de'],
  ])('%s → %s', (input, domain) => {
    expect(primary(input)).toEqual({ kind: 'domain', domain, source: 'domain' });
  });

  it('registrableDomain refuses IPs, single labels and bad labels', () => {
    for (const host of ['127.0.0.1', 'localhost', '-acme.com', 'acme-.com', 'a_b.com', 'com', 'co.uk', '', 'a'.repeat(64) + '.com']) {
      expect(registrableDomain(host), host).toBeNull();
    }
  });
});

describe('brand IDs', () => {
  it('are recognised and never read as a domain, ticker or symbol', () => {
    const id = brandIdForDomain('acme.com');
    expect(id).toMatch(/^brd_[a-z2-7]{20}$/);
    expect(primary(id)).toEqual({ kind: 'brandId', id });
    expect(registrableDomain(id)).toBeNull();
  });

  it('are stable for a domain', () => {
    expect(brandIdForDomain('acme.com')).toBe(brandIdForDomain('acme.com'));
    expect(brandIdForDomain('acme.com')).not.toBe(brandIdForDomain('acme.org'));
  });
});

describe('tickers, ISINs and crypto symbols', () => {
  it('a bare symbol is a ticker first, then a crypto symbol', () => {
    const result = parseIdentifier('aapl');
    expect(result).toEqual({ ok: true, readings: { primary: { kind: 'ticker', symbol: 'AAPL' }, fallbacks: [{ kind: 'crypto', symbol: 'AAPL' }] } });
  });

  it('rule 6: an exchange-suffixed ticker that looks like a domain is read as a domain first, then as a ticker', () => {
    const result = parseIdentifier('SAP.DE');
    expect(result).toEqual({ ok: true, readings: { primary: { kind: 'domain', domain: 'sap.de', source: 'domain' }, fallbacks: [{ kind: 'ticker', symbol: 'SAP.DE' }] } });
  });

  it('a suffixed ticker whose suffix is no TLD is a ticker', () => {
    expect(primary('BRK.B')).toEqual({ kind: 'ticker', symbol: 'BRK.B' });
    expect(primary('7203.T')).toEqual({ kind: 'ticker', symbol: '7203.T' });
  });

  it('ISINs are checked with their check digit', () => {
    expect(isValidIsin('US0378331005')).toBe(true);
    expect(isValidIsin('DE0007164600')).toBe(true);
    expect(isValidIsin('US0378331006')).toBe(false);
    expect(primary('us0378331005')).toEqual({ kind: 'isin', isin: 'US0378331005' });
    expect(rejected('US0378331006')).toMatch(/check digit/);
  });
});

describe('lengths and whitespace', () => {
  it('rejects empty, whitespace-only, inner whitespace and over-long input', () => {
    expect(rejected('')).toMatch(/empty/);
    expect(rejected('   ')).toMatch(/empty/);
    expect(rejected('acme .com')).toMatch(/whitespace/);
    expect(rejected('ja ne@acme.com')).toMatch(/whitespace/);
    expect(rejected(`${'a'.repeat(2045)}.com`)).toMatch(/2048/);
  });

  it('accepts a 2048-character URL', () => {
    const url = `https://acme.com/${'p'.repeat(2048 - 'https://acme.com/'.length)}`;
    expect(url).toHaveLength(2048);
    expect(primary(url)).toMatchObject({ domain: 'acme.com' });
  });

  it('trims surrounding whitespace', () => {
    expect(primary('\t acme.com \n')).toMatchObject({ domain: 'acme.com' });
  });
});

describe('explicit type routes (rules 4 and 5)', () => {
  it('the domain route refuses website URLs and email addresses', () => {
    expect(parseTypedIdentifier('domain', 'https://acme.com')).toMatchObject({ ok: false });
    expect(parseTypedIdentifier('domain', 'acme.com/about')).toMatchObject({ ok: false });
    expect(parseTypedIdentifier('domain', 'jane@acme.com')).toMatchObject({ ok: false });
    expect(parseTypedIdentifier('domain', 'jane%40acme.com')).toMatchObject({ ok: false });
  });

  it('the domain route accepts domains and reduces them to the registrable domain', () => {
    expect(parseTypedIdentifier('domain', 'WWW.Acme.com.')).toEqual({ ok: true, readings: { primary: { kind: 'domain', domain: 'acme.com', source: 'domain' }, fallbacks: [] } });
  });

  it('the ticker route is always a ticker (rule 6)', () => {
    expect(parseTypedIdentifier('ticker', 'sap.de')).toEqual({ ok: true, readings: { primary: { kind: 'ticker', symbol: 'SAP.DE' }, fallbacks: [] } });
  });

  it('the ISIN route answers "Bad Request" for an invalid ISIN', () => {
    expect(parseTypedIdentifier('isin', 'US0378331006')).toEqual({ ok: false, message: 'Bad Request' });
  });
});

describe('IdentifierCache', () => {
  it('answers like parseIdentifier and never keeps URLs or email addresses', async () => {
    const { IdentifierCache } = await import('../../src/domain/identifier-cache.js');
    const cache = new IdentifierCache(10_000);
    for (const input of ['acme.com', 'https://acme.com/x', 'jane@acme.com', 'AAPL', 'acme.com']) expect(cache.parse(input)).toEqual(parseIdentifier(input));
    const kept = [...(cache as unknown as { entries: Map<string, unknown> }).entries.keys()];
    expect(kept).toEqual(['acme.com']);
  });
});
