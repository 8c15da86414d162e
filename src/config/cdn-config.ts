/**
 * Logo CDN settings (docs/configuration.md, "Logo CDN"; docs/logo-cdn.md; ADR 0034). By default the CDN is served by
 * the API itself under `/logo`; it can have its own port (a separate listener, e.g. behind a CDN or a `logo.`
 * host) or answer on the API port for one host name.
 */

/** Reported like config.ts's ConfigError (the CLI prints it as a user error by its name). */
class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

type Env = Readonly<Record<string, string | undefined>>;

export interface CdnConfig {
  /** Own listener's port (0: any free port); null: served by the API's listener. */
  port: number | null;
  /** Host name the CDN answers for on the API's listener (Fastify host constraint); null: any host. */
  host: string | null;
  /** Path prefix of every CDN URL: '' or `/something` (no trailing slash). */
  path: string;
  /** Public base of CDN URLs (records' CDN forms are rendered under it); no trailing slash. */
  baseUrl: string;
  /** Cache-Control max-age of a brand's logo, in seconds. */
  maxAgeSeconds: number;
  /** Cache-Control max-age of a fallback or 404, in seconds. */
  fallbackMaxAgeSeconds: number;
  /** Bytes of rendered variants kept in memory per process (the rest is read from the asset store). */
  memoryBytes: number;
}

export const CDN_ENV_VARS = [
  'BRANDBASE_CDN_PORT',
  'BRANDBASE_CDN_HOST',
  'BRANDBASE_CDN_PATH',
  'BRANDBASE_CDN_BASE_URL',
  'BRANDBASE_CDN_MAX_AGE',
  'BRANDBASE_CDN_FALLBACK_MAX_AGE',
  'BRANDBASE_CDN_MEMORY_MB',
] as const;

function text(env: Env, name: string): string | null {
  const raw = env[name]?.trim();
  return raw ? raw : null;
}

function integer(env: Env, name: string, fallback: number, min: number, max = Number.MAX_SAFE_INTEGER): number {
  const raw = text(env, name);
  if (raw === null) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) throw new ConfigError(`${name} must be an integer from ${min} to ${max}, got "${raw}"`);
  return value;
}

function pathPrefix(raw: string): string {
  if (raw === '/' || raw === '') return '';
  if (!/^\/[A-Za-z0-9._~/-]*[A-Za-z0-9._~-]$/.test(raw)) throw new ConfigError(`BRANDBASE_CDN_PATH must be a path such as /logo, got "${raw}"`);
  return raw;
}

/** `publicUrl`: the API's public URL (no trailing slash), the base of CDN URLs when the API serves them. */
export function loadCdnConfig(env: Env, publicUrl: string): CdnConfig {
  const portText = text(env, 'BRANDBASE_CDN_PORT');
  const port = portText === null ? null : integer(env, 'BRANDBASE_CDN_PORT', 0, 0, 65_535);
  const host = text(env, 'BRANDBASE_CDN_HOST')?.toLowerCase() ?? null;
  // Under the API's own paths the CDN needs a prefix; on its own port or host name it can own the root.
  const path = pathPrefix(text(env, 'BRANDBASE_CDN_PATH') ?? (port === null && host === null ? '/logo' : ''));
  const base = text(env, 'BRANDBASE_CDN_BASE_URL');
  if (base !== null && !/^https?:\/\/[^/]/.test(base)) throw new ConfigError(`BRANDBASE_CDN_BASE_URL must be an http(s) URL, got "${base}"`);
  const defaultBase = port !== null ? `http://localhost:${port}${path}` : host !== null ? `${new URL(publicUrl).protocol}//${host}${path}` : `${publicUrl}${path}`;
  return {
    port,
    host,
    path,
    baseUrl: (base ?? defaultBase).replace(/\/+$/, ''),
    maxAgeSeconds: integer(env, 'BRANDBASE_CDN_MAX_AGE', 7 * 86_400, 0),
    fallbackMaxAgeSeconds: integer(env, 'BRANDBASE_CDN_FALLBACK_MAX_AGE', 300, 0),
    memoryBytes: integer(env, 'BRANDBASE_CDN_MEMORY_MB', 64, 0) * 1024 * 1024,
  };
}
