/** The logo CDN's URL grammar (src/cdn/logo-cdn-request.ts): every segment, both identifier forms, each bad value. */
import { describe, expect, it } from 'vitest';
import { CDN_MAX_SIDE, negotiatedFormat, parseLogoCdnPath, type LogoCdnRequest } from '../../src/cdn/logo-cdn-request.js';

function ok(path: string): LogoCdnRequest {
  const parsed = parseLogoCdnPath(path);
  if (!parsed.ok) throw new Error(`${path}: ${parsed.code}`);
  return parsed.request;
}

function code(path: string): string | null {
  const parsed = parseLogoCdnPath(path);
  return parsed.ok ? null : parsed.code;
}

describe('logo CDN URL grammar', () => {
  it('an auto-detected identifier alone takes the defaults: icon, fallback default, WebP, no size or theme', () => {
    const request = ok('/acme.com');
    expect(request.readings.primary).toEqual({ kind: 'domain', domain: 'acme.com', source: 'domain' });
    expect(request).toMatchObject({ identifierType: null, width: null, height: null, theme: null, fallback: 'default', type: 'icon', format: 'webp', explicitFormat: false });
  });

  it('keeps a domain TLD that is not an image extension (acme.co.uk, acme.shop)', () => {
    expect(ok('/acme.co.uk').readings.primary).toMatchObject({ domain: 'acme.co.uk' });
    expect(ok('/acme.shop').readings.primary).toMatchObject({ domain: 'acme.shop' });
    expect(ok('/domain/acme.shop').readings.primary).toMatchObject({ domain: 'acme.shop' });
  });

  it('reads the typed forms domain, ticker, isin and crypto', () => {
    expect(ok('/domain/acme.com').identifierType).toBe('domain');
    expect(ok('/ticker/AAPL').readings.primary).toMatchObject({ kind: 'ticker', symbol: 'AAPL' });
    expect(ok('/isin/US0378331005').readings.primary).toMatchObject({ kind: 'isin', isin: 'US0378331005' });
    expect(ok('/crypto/BTC').readings.primary).toMatchObject({ kind: 'crypto', symbol: 'BTC' });
  });

  it('reads every option segment, in any order, with an extension on the last value', () => {
    const a = ok('/acme.com/w/64/h/32/theme/dark/fallback/lettermark/type/logo.png');
    const b = ok('/acme.com/type/logo/fallback/lettermark/theme/dark/h/32/w/64.png');
    for (const request of [a, b]) expect(request).toMatchObject({ width: 64, height: 32, theme: 'dark', fallback: 'lettermark', type: 'logo', format: 'png', explicitFormat: true });
    expect(ok('/domain/acme.com/theme/light/fallback/transparent.webp')).toMatchObject({ identifierType: 'domain', theme: 'light', fallback: 'transparent', format: 'webp' });
    expect(ok('/acme.com/fallback/404')).toMatchObject({ fallback: '404' });
    expect(ok('/acme.com/type/symbol.svg')).toMatchObject({ type: 'symbol', format: 'svg' });
  });

  it('reads each extension; .jpg and .jpeg are JPEG; the extension can end the identifier', () => {
    expect(ok('/acme.com.png')).toMatchObject({ format: 'png', explicitFormat: true });
    expect(ok('/acme.com.jpg').format).toBe('jpeg');
    expect(ok('/acme.com/w/10.jpeg').format).toBe('jpeg');
    expect(ok('/acme.com.webp').readings.primary).toMatchObject({ domain: 'acme.com' });
    expect(ok('/acme.com/type/logo.svg').format).toBe('svg');
  });

  it('bounds sizes from 1 to the documented maximum', () => {
    expect(ok(`/acme.com/w/${CDN_MAX_SIDE}/h/1`)).toMatchObject({ width: CDN_MAX_SIDE, height: 1 });
  });

  it.each([
    ['/acme.com/w/0', 'invalid_width'],
    ['/acme.com/w/-5', 'invalid_width'],
    ['/acme.com/w/12.5', 'invalid_width'],
    ['/acme.com/w/abc', 'invalid_width'],
    [`/acme.com/w/${CDN_MAX_SIDE + 1}`, 'invalid_width'],
    ['/acme.com/w/064', 'invalid_width'],
    ['/acme.com/h/0', 'invalid_height'],
    ['/acme.com/h/99999', 'invalid_height'],
    ['/acme.com/theme/blue', 'invalid_theme'],
    ['/acme.com/fallback/none', 'invalid_fallback'],
    ['/acme.com/type/other', 'invalid_type'],
    ['/acme.com/type/banner', 'invalid_type'],
    ['/acme.com/w/64.gif', 'invalid_format'],
    ['/acme.com/size/64', 'invalid_segment'],
    ['/acme.com/w', 'invalid_segment'],
    ['/acme.com/w/64/w/32', 'duplicate_segment'],
    ['/acme.com.svg', 'svg_not_available'],
    ['/acme.com/type/icon.svg', 'svg_not_available'],
    ['/not a domain', 'invalid_identifier'],
    ['/', 'invalid_identifier'],
    ['/%E0%A4%A', 'invalid_identifier'],
    ['/isin/US0000000000', 'invalid_identifier'],
  ])('%s is refused with %s', (path, expected) => {
    expect(code(path)).toBe(expected);
  });

  it('negotiates an extension-less answer on Accept: WebP unless the client lists image types without it', () => {
    expect(negotiatedFormat(undefined)).toBe('webp');
    expect(negotiatedFormat('image/avif,image/webp,image/apng,*/*;q=0.8')).toBe('webp');
    expect(negotiatedFormat('image/png,image/svg+xml,image/*;q=0.8')).toBe('webp');
    expect(negotiatedFormat('image/png')).toBe('png');
    expect(negotiatedFormat('image/png, image/jpeg')).toBe('png');
  });
});
