/** The ticker forms users type (docs/identifiers.md): suffixes, exchange prefix and parameter, share classes. */
import { describe, expect, it } from 'vitest';
import { parseIdentifier, parseTypedIdentifier, withExchange, type ParseResult } from '../../src/domain/identifiers.js';

const primary = (result: ParseResult) => (result.ok ? result.readings.primary : result);

describe('ticker forms', () => {
  it('reads an exchange prefix on the ticker route and on the auto-detecting route', () => {
    expect(primary(parseTypedIdentifier('ticker', 'XLON:SHEL'))).toEqual({ kind: 'ticker', symbol: 'SHEL', exchange: 'XLON' });
    expect(primary(parseTypedIdentifier('ticker', 'tse:7203'))).toEqual({ kind: 'ticker', symbol: '7203', exchange: 'TSE' });
    expect(primary(parseIdentifier('XLON:SHEL'))).toEqual({ kind: 'ticker', symbol: 'SHEL', exchange: 'XLON' });
  });

  it('keeps suffixes and share classes as typed for the resolver', () => {
    for (const value of ['7203.T', 'SHEL.L', 'SAP.DE', 'BRK.B', 'BRK-B', 'RDS/A', 'VOLV-B.ST', 'GFNORTEO.MX', 'HINDUNILVR.NS']) {
      expect(primary(parseTypedIdentifier('ticker', value)), value).toEqual({ kind: 'ticker', symbol: value });
    }
  });

  it('refuses what is no ticker on the ticker route', () => {
    for (const value of ['SHEL..L', 'A B', 'XLON:', ':SHEL', 'TOO-LONG-SYMBOL-HERE']) expect(parseTypedIdentifier('ticker', value).ok, value).toBe(false);
  });

  it('applies ?exchange= to ticker readings only, and never over a prefix', () => {
    const parsed = parseIdentifier('SAP.DE');
    if (!parsed.ok) throw new Error(parsed.message);
    const applied = withExchange(parsed.readings, 'xetr');
    expect(applied.primary).toEqual(parsed.readings.primary);
    expect(applied.fallbacks).toEqual([{ kind: 'ticker', symbol: 'SAP.DE', exchange: 'XETR' }]);
    const prefixed = parseTypedIdentifier('ticker', 'XLON:SHEL');
    if (!prefixed.ok) throw new Error(prefixed.message);
    expect(withExchange(prefixed.readings, 'XNYS').primary).toEqual({ kind: 'ticker', symbol: 'SHEL', exchange: 'XLON' });
    expect(withExchange(prefixed.readings, 'not an exchange')).toBe(prefixed.readings);
  });
});

describe('the prefix form on the auto-detecting route', () => {
  it('is read only with the exchange in capitals, so a URI scheme stays invalid', () => {
    expect(parseIdentifier('mailto:x').ok).toBe(false);
    expect(primary(parseIdentifier('NASDAQ:AAPL'))).toEqual({ kind: 'ticker', symbol: 'AAPL', exchange: 'NASDAQ' });
  });
});
