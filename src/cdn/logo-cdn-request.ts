/**
 * The logo CDN's URL grammar (issue 20 item 3, docs/logo-cdn.md, ADR 0034). Pure: a path in, a request or the
 * exact reason it is refused out.
 *
 *   /{identifier}[/{key}/{value}]...[.{ext}]            identifier auto-detected, as GET /v2/brands/{identifier}
 *   /{type}/{identifier}[/{key}/{value}]...[.{ext}]     type: domain | ticker | isin | crypto
 *
 * Option segments come in any order, each at most once: `w`, `h` (1..CDN_MAX_SIDE), `theme` (light|dark, the
 * logo's own theme as in records), `fallback` (default|transparent|lettermark|404), `type` (icon|logo|symbol).
 * The extension ends the last path segment: webp (default), png, jpg/jpeg, svg (logo and symbol only).
 */
import { parseIdentifier, parseTypedIdentifier, type ExplicitType, type Readings } from '../domain/identifiers.js';

/** Longest side a variant may be asked for: sharp on a retina header, and a bound on what one request can cost. */
export const CDN_MAX_SIDE = 1024;

export type CdnTheme = 'light' | 'dark';
export type CdnFallback = 'default' | 'transparent' | 'lettermark' | '404';
export type CdnLogoType = 'icon' | 'logo' | 'symbol';
export type CdnFormat = 'webp' | 'png' | 'jpeg' | 'svg';

export interface LogoCdnRequest {
  readings: Readings;
  /** `domain`, `ticker`, `isin` or `crypto` on the typed form; null when auto-detected. */
  identifierType: ExplicitType | null;
  width: number | null;
  height: number | null;
  theme: CdnTheme | null;
  fallback: CdnFallback;
  type: CdnLogoType;
  format: CdnFormat;
  /** False when the URL named no extension (the answer is then negotiated on `Accept`: see negotiatedFormat). */
  explicitFormat: boolean;
}

/** Codes sent in `x-bf-error` (registered in domain/errors.ts, listed in docs/errors.md). */
export type CdnGrammarError =
  | 'invalid_identifier'
  | 'invalid_width'
  | 'invalid_height'
  | 'invalid_theme'
  | 'invalid_fallback'
  | 'invalid_type'
  | 'invalid_format'
  | 'invalid_segment'
  | 'duplicate_segment'
  | 'svg_not_available';

export type ParsedCdnPath = { ok: true; request: LogoCdnRequest } | { ok: false; code: CdnGrammarError; message: string };

const TYPES: readonly ExplicitType[] = ['domain', 'ticker', 'isin', 'crypto'];
const THEMES: readonly CdnTheme[] = ['light', 'dark'];
const FALLBACKS: readonly CdnFallback[] = ['default', 'transparent', 'lettermark', '404'];
const LOGO_TYPES: readonly CdnLogoType[] = ['icon', 'logo', 'symbol'];
const EXTENSIONS: Readonly<Record<string, CdnFormat>> = { webp: 'webp', png: 'png', jpg: 'jpeg', jpeg: 'jpeg', svg: 'svg' };
/** A trailing `.xxx` that looks like a file extension (letters only, so `acme.co.uk` keeps its TLD). */
const EXTENSION = /\.([a-z]{3,4})$/i;
const SIDE = /^[1-9][0-9]{0,4}$/;

type Options = Pick<LogoCdnRequest, 'width' | 'height' | 'theme' | 'fallback' | 'type'>;
type Failure = Extract<ParsedCdnPath, { ok: false }>;

const fail = (code: CdnGrammarError, message: string): Failure => ({ ok: false, code, message });

/** Parses the part of the URL path after the CDN's prefix (no query string), e.g. `/acme.com/w/64/h/64.png`. */
export function parseLogoCdnPath(path: string): ParsedCdnPath {
  const segments = path.split('/').filter((segment) => segment !== '').map(safeDecode);
  if (segments.length === 0 || segments.some((s) => s === null)) return fail('invalid_identifier', 'The URL names no valid identifier.');
  const parts = segments as string[];
  const typed = parts.length >= 2 && TYPES.includes(parts[0] as ExplicitType) ? (parts[0] as ExplicitType) : null;
  const extension = splitExtension(parts, typed ? 1 : 0);
  if (!extension.ok) return extension;
  const raw = typed ? parts[1] : parts[0];
  const parsed = typed ? parseTypedIdentifier(typed, raw ?? '') : parseIdentifier(raw ?? '');
  if (!parsed.ok) return fail('invalid_identifier', parsed.message);
  const options = parseOptions(parts.slice(typed ? 2 : 1));
  if ('ok' in options) return options;
  if (extension.format === 'svg' && options.type === 'icon') return fail('svg_not_available', 'SVG is served for type logo and symbol only; icons are raster.');
  return { ok: true, request: { readings: parsed.readings, identifierType: typed, ...options, format: extension.format, explicitFormat: extension.explicit } };
}

const PARSED_MAX = 10_000;
const parsedPaths = new Map<string, ParsedCdnPath>();

/**
 * parseLogoCdnPath with the answers of recent paths kept (a bounded map, cleared when full): a page's `<img>` URLs
 * repeat, and reading an identifier (public-suffix rules) is the costliest step of a cached logo. The result is
 * shared: callers must not change it.
 */
export function parseLogoCdnPathCached(path: string): Readonly<ParsedCdnPath> {
  let parsed = parsedPaths.get(path);
  if (!parsed) {
    parsed = parseLogoCdnPath(path);
    if (parsedPaths.size >= PARSED_MAX) parsedPaths.clear();
    parsedPaths.set(path, parsed);
  }
  return parsed;
}

/** Strips the extension off the last segment (in place) and says which format it names. */
function splitExtension(parts: string[], identifierIndex: number): { ok: true; format: CdnFormat; explicit: boolean } | Failure {
  const last = parts[parts.length - 1] ?? '';
  const match = EXTENSION.exec(last);
  // Without option segments the last segment is the identifier: a domain ends with its TLD (`.com`, `.shop`),
  // which is an extension only when it names an image format.
  const named = match ? EXTENSIONS[match[1]!.toLowerCase()] : undefined;
  if (!match || (!named && parts.length - 1 === identifierIndex)) return { ok: true, format: 'webp', explicit: false };
  // After an option value (`/w/64.gif`) anything after a dot is meant as an extension.
  if (!named) return fail('invalid_format', 'Unknown extension: use .webp, .png, .jpg or .svg.');
  parts[parts.length - 1] = last.slice(0, -match[0].length);
  return { ok: true, format: named, explicit: true };
}

function parseOptions(rest: string[]): Options | Failure {
  const options: Options = { width: null, height: null, theme: null, fallback: 'default', type: 'icon' };
  const seen = new Set<string>();
  for (let i = 0; i < rest.length; i += 2) {
    const key = rest[i]!;
    const value = rest[i + 1];
    if (value === undefined) return fail('invalid_segment', 'A segment has no value: segments come as /key/value.');
    if (seen.has(key)) return fail('duplicate_segment', 'A segment is given twice.');
    seen.add(key);
    const failure = applyOption(options, key, value);
    if (failure) return failure;
  }
  return options;
}

function applyOption(options: Options, key: string, value: string): Failure | null {
  switch (key) {
    case 'w':
    case 'h': {
      const side = SIDE.test(value) ? Number(value) : NaN;
      const code = key === 'w' ? 'invalid_width' : 'invalid_height';
      if (!(side >= 1 && side <= CDN_MAX_SIDE)) return fail(code, `${key === 'w' ? 'Width' : 'Height'} must be a whole number from 1 to ${CDN_MAX_SIDE}.`);
      options[key === 'w' ? 'width' : 'height'] = side;
      return null;
    }
    case 'theme':
      if (!THEMES.includes(value as CdnTheme)) return fail('invalid_theme', 'Theme must be light or dark.');
      options.theme = value as CdnTheme;
      return null;
    case 'fallback':
      if (!FALLBACKS.includes(value as CdnFallback)) return fail('invalid_fallback', 'Fallback must be default, transparent, lettermark or 404.');
      options.fallback = value as CdnFallback;
      return null;
    case 'type':
      if (!LOGO_TYPES.includes(value as CdnLogoType)) return fail('invalid_type', 'Type must be icon, logo or symbol.');
      options.type = value as CdnLogoType;
      return null;
    default:
      return fail('invalid_segment', 'Unknown segment: use w, h, theme, fallback or type.');
  }
}

/**
 * The format of an answer whose URL named no extension: WebP unless the client's `Accept` lists image types and
 * WebP is not among them (then PNG). Such answers carry `Vary: Accept`.
 */
export function negotiatedFormat(accept: string | undefined): 'webp' | 'png' {
  if (!accept) return 'webp';
  const types = accept.split(',').map((part) => part.split(';')[0]!.trim().toLowerCase());
  return types.some((t) => t === 'image/webp' || t === 'image/*' || t === '*/*') ? 'webp' : 'png';
}

function safeDecode(segment: string): string | null {
  try {
    return decodeURIComponent(segment);
  } catch {
    return null;
  }
}
