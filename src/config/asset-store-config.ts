/**
 * Where logo and image files are stored (docs/configuration.md, "Assets in object storage"; docs/deployment.md;
 * ADR 0038): the local folder under the data dir (the embedded default) or an S3-compatible bucket, which every
 * API and worker process of a fleet shares.
 */

/** Reported like config.ts's ConfigError (the CLI prints it as a user error by its name). */
class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

type Env = Readonly<Record<string, string | undefined>>;

export interface S3Settings {
  bucket: string;
  /** '' or a prefix ending with `/`, prepended to every object name. */
  prefix: string;
  /** An S3-compatible server's URL; null: AWS S3 of `region`. */
  endpoint: string | null;
  region: string;
  /** Null: the AWS SDK's default credential chain (AWS_* variables, shared config files, instance role). */
  credentials: { accessKeyId: string; secretAccessKey: string } | null;
  forcePathStyle: boolean;
}

export interface AssetStoreConfig {
  backend: 'local' | 's3';
  /** Set when backend is `s3`. */
  s3: S3Settings | null;
}

export const ASSET_STORE_ENV_VARS = [
  'BRANDBASE_ASSET_STORE',
  'BRANDBASE_S3_BUCKET',
  'BRANDBASE_S3_ENDPOINT',
  'BRANDBASE_S3_REGION',
  'BRANDBASE_S3_ACCESS_KEY_ID',
  'BRANDBASE_S3_SECRET_ACCESS_KEY',
  'BRANDBASE_S3_PREFIX',
  'BRANDBASE_S3_FORCE_PATH_STYLE',
] as const;

function text(env: Env, name: string): string | null {
  const raw = env[name]?.trim();
  return raw ? raw : null;
}

function onOff(env: Env, name: string, fallback: boolean): boolean {
  const raw = text(env, name);
  if (raw === null) return fallback;
  if (raw !== 'on' && raw !== 'off') throw new ConfigError(`${name} must be on or off, got "${raw}"`);
  return raw === 'on';
}

/** S3 bucket naming rules (3-63 lower-case letters, digits, dots and hyphens). */
function bucketName(raw: string | null): string {
  if (raw === null) throw new ConfigError('BRANDBASE_S3_BUCKET is required when BRANDBASE_ASSET_STORE=s3');
  if (!/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(raw)) throw new ConfigError(`BRANDBASE_S3_BUCKET must be an S3 bucket name, got "${raw}"`);
  return raw;
}

function endpointUrl(raw: string | null): string | null {
  if (raw === null) return null;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError('BRANDBASE_S3_ENDPOINT must be an http(s) URL');
  }
  // The value is not echoed: an endpoint URL may carry credentials in its user part.
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ConfigError('BRANDBASE_S3_ENDPOINT must be an http(s) URL');
  return raw.replace(/\/+$/, '');
}

/** '' or `a/b/`: no leading slash, no `..`, safe characters only, always ending with one slash. */
function keyPrefix(raw: string | null): string {
  if (raw === null) return '';
  const trimmed = raw.replace(/^\/+|\/+$/g, '');
  if (trimmed === '') return '';
  if (!/^[A-Za-z0-9._-]+(\/[A-Za-z0-9._-]+)*$/.test(trimmed) || trimmed.split('/').some((part) => part === '.' || part === '..')) {
    throw new ConfigError(`BRANDBASE_S3_PREFIX must be a path such as brandbase/assets, got "${raw}"`);
  }
  return `${trimmed}/`;
}

function credentials(env: Env): S3Settings['credentials'] {
  const accessKeyId = text(env, 'BRANDBASE_S3_ACCESS_KEY_ID');
  const secretAccessKey = text(env, 'BRANDBASE_S3_SECRET_ACCESS_KEY');
  if (accessKeyId === null && secretAccessKey === null) return null;
  if (accessKeyId === null || secretAccessKey === null) {
    throw new ConfigError('BRANDBASE_S3_ACCESS_KEY_ID and BRANDBASE_S3_SECRET_ACCESS_KEY must be set together');
  }
  return { accessKeyId, secretAccessKey };
}

export function loadAssetStoreConfig(env: Env): AssetStoreConfig {
  const backend = text(env, 'BRANDBASE_ASSET_STORE') ?? 'local';
  if (backend === 'local') return { backend, s3: null };
  if (backend !== 's3') throw new ConfigError(`BRANDBASE_ASSET_STORE must be local or s3, got "${backend}"`);
  const endpoint = endpointUrl(text(env, 'BRANDBASE_S3_ENDPOINT'));
  return {
    backend,
    s3: Object.freeze({
      bucket: bucketName(text(env, 'BRANDBASE_S3_BUCKET')),
      prefix: keyPrefix(text(env, 'BRANDBASE_S3_PREFIX')),
      endpoint,
      region: text(env, 'BRANDBASE_S3_REGION') ?? 'us-east-1',
      credentials: credentials(env),
      // S3-compatible servers (MinIO, s3rver) mostly need path-style addressing; AWS S3 prefers virtual hosts.
      forcePathStyle: onOff(env, 'BRANDBASE_S3_FORCE_PATH_STYLE', endpoint !== null),
    }),
  };
}
