/**
 * The `build_logo_urls` tool's work: logo CDN URLs for an identifier (docs/logo-cdn.md), in the CDN's own grammar,
 * checked by the CDN's own parser (cdn/logo-cdn-request.ts) so every URL built here is one the CDN answers. Pure and
 * free: building a URL reads nothing; the CDN counts each image it serves on the client ID's logo allowance.
 */
import { parseLogoCdnPath, type CdnFallback, type CdnLogoType, type CdnTheme } from '../cdn/logo-cdn-request.js';
import { parseIdentifier } from '../domain/identifiers.js';
import { ApiError } from '../domain/errors.js';

export interface LogoUrlRequest {
  identifier: string;
  type?: CdnLogoType;
  theme?: CdnTheme;
  /** Square when only one side is given. */
  size?: number;
  format?: 'png' | 'webp' | 'jpg' | 'svg';
  fallback?: CdnFallback;
}

export interface LogoUrls {
  /** One URL per logo type (icon, logo, symbol), or the one type asked for. */
  urls: { type: CdnLogoType; url: string }[];
  /** The client ID the URLs carry (`?c=`); null when the organization has none yet (the CDN refuses them then). */
  clientId: string | null;
}

const TYPES: readonly CdnLogoType[] = ['icon', 'logo', 'symbol'];

export function buildLogoUrls(base: string, request: LogoUrlRequest, clientId: string | undefined): LogoUrls {
  const types = request.type ? [request.type] : TYPES;
  const urls = types.map((type) => ({ type, url: logoUrl(base, request, type, clientId) }));
  return { urls, clientId: clientId ?? null };
}

function logoUrl(base: string, request: LogoUrlRequest, type: CdnLogoType, clientId: string | undefined): string {
  const format = request.format ?? 'png';
  // Icons are raster only: an SVG asked for every type falls back to PNG for the icon.
  const ext = format === 'svg' && type === 'icon' ? 'png' : format;
  const size = request.size === undefined ? '' : `/w/${request.size}/h/${request.size}`;
  const path = `/${identifierPath(request.identifier)}/type/${type}${request.theme ? `/theme/${request.theme}` : ''}${size}${request.fallback ? `/fallback/${request.fallback}` : ''}.${ext}`;
  const parsed = parseLogoCdnPath(path);
  if (!parsed.ok) throw new ApiError(parsed.code, parsed.message);
  return `${base}${path}${clientId ? `?c=${encodeURIComponent(clientId)}` : ''}`;
}

/** The identifier as the CDN's typed form names it: a URL or email address reduced to its domain (never put in a URL). */
function identifierPath(identifier: string): string {
  const parsed = parseIdentifier(identifier.trim());
  if (!parsed.ok) throw new ApiError('invalid_identifier', parsed.message);
  const id = parsed.readings.primary;
  switch (id.kind) {
    case 'domain':
      return `domain/${encodeURIComponent(id.domain)}`;
    case 'ticker':
      return `ticker/${encodeURIComponent(id.exchange ? `${id.exchange}:${id.symbol}` : id.symbol)}`;
    case 'isin':
      return `isin/${id.isin}`;
    case 'crypto':
      return `crypto/${encodeURIComponent(id.symbol)}`;
    default:
      return encodeURIComponent(id.id);
  }
}
