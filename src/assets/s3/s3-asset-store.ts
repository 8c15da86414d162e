import { createHash } from 'node:crypto';
import { DeleteObjectCommand, GetObjectCommand, HeadObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { ASSET_KEY_PATTERN, type AssetStore, type StoredAsset, type VariantStore } from '../asset-store.js';
import type { S3Settings } from '../../config/feature-configs.js';

export type AssetExt = 'svg' | 'png' | 'webp' | 'jpeg';

/** Where the bucket is and how to reach it: the configured settings (docs/configuration.md, "Assets in object storage"; ADR 0038). */
export interface S3AssetStoreOptions extends S3Settings {
  /** Milliseconds a request may take before it is abandoned (and retried by the SDK). */
  requestTimeoutMs?: number;
}

/** Folder of the CDN's variants (VariantStore): never a valid asset key, so `get` cannot reach into it. */
const VARIANTS_FOLDER = 'variants/';

const CONTENT_TYPES: Record<AssetExt, string> = {
  svg: 'image/svg+xml',
  png: 'image/png',
  webp: 'image/webp',
  jpeg: 'image/jpeg',
};

/**
 * A bucket answered with something other than the object or "no such key" (unreachable, throttled, denied).
 * `retryable` follows the platform's convention (`isRetryable` in domain/errors.ts): a job that stored nothing
 * is tried again when the fault may pass (network, 5xx, throttling), not when the bucket refuses us (4xx).
 * The message names the operation and the status, never the credentials or the object's URL.
 */
export class AssetStoreError extends Error {
  readonly retryable: boolean;

  constructor(operation: string, cause: unknown) {
    const status = httpStatus(cause);
    super(`asset store ${operation} failed: ${errorName(cause)}${status === null ? '' : ` (HTTP ${status})`}`, { cause });
    this.name = 'AssetStoreError';
    this.retryable = status === null || status >= 500 || status === 408 || status === 429;
  }
}

/**
 * The asset store over an S3-compatible bucket (issue 22, ADR 0038). Same keys, same answers as the local folder
 * (`local-asset-store.ts`): records keep keys, so switching backends needs no record rewrite (ADR 0011). Objects are
 * `<prefix><sha256>.<ext>`; the CDN's variants are `<prefix>variants/<key>`, which no asset key can name.
 */
export class S3AssetStore implements AssetStore, VariantStore {
  private readonly client: S3Client;
  private readonly bucket: string;
  private readonly prefix: string;
  /** Puts of one key in flight in this process: concurrent crawls of the same logo send it once. */
  private readonly pending = new Map<string, Promise<void>>();

  constructor(options: S3AssetStoreOptions) {
    this.bucket = options.bucket;
    this.prefix = options.prefix;
    this.client = new S3Client({
      region: options.region,
      ...(options.endpoint === null ? {} : { endpoint: options.endpoint }),
      ...(options.credentials === null ? {} : { credentials: options.credentials }),
      forcePathStyle: options.forcePathStyle,
      // Checksums only where the API requires them: many S3-compatible servers reject the flexible-checksum
      // headers the SDK sends by default; S3 itself checks each upload's length and Content-MD5 is not needed.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      requestHandler: { requestTimeout: options.requestTimeoutMs ?? 30_000, connectionTimeout: 5_000 },
    });
  }

  async put(bytes: Buffer, ext: AssetExt): Promise<StoredAsset> {
    if (!Object.hasOwn(CONTENT_TYPES, ext)) throw new Error(`unsupported asset extension: ${String(ext)}`);
    const key = `${createHash('sha256').update(bytes).digest('hex')}.${ext}`;
    let putting = this.pending.get(key);
    if (!putting) {
      putting = this.putOnce(key, bytes, CONTENT_TYPES[ext]).finally(() => this.pending.delete(key));
      this.pending.set(key, putting);
    }
    await putting;
    return { key, size: bytes.length };
  }

  async get(key: string): Promise<{ bytes: Buffer; contentType: string } | null> {
    const match = ASSET_KEY_PATTERN.exec(key);
    if (!match) return null;
    const bytes = await this.read(this.prefix + key);
    return bytes === null ? null : { bytes, contentType: CONTENT_TYPES[match[1] as AssetExt] };
  }

  async getVariant(key: string): Promise<Buffer | null> {
    if (!ASSET_KEY_PATTERN.test(key)) return null;
    return this.read(this.prefix + VARIANTS_FOLDER + key);
  }

  /** One PUT replaces the object whole: readers see the old variant or the new one, never a part. */
  async putVariant(key: string, bytes: Buffer): Promise<void> {
    const match = ASSET_KEY_PATTERN.exec(key);
    if (!match) throw new Error('malformed variant key');
    await this.write(this.prefix + VARIANTS_FOLDER + key, bytes, CONTENT_TYPES[match[1] as AssetExt]);
  }

  async deleteVariant(key: string): Promise<void> {
    if (!ASSET_KEY_PATTERN.test(key)) return;
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: this.prefix + VARIANTS_FOLDER + key }));
  }

  /** Closes the client's connections (the server's shutdown). */
  close(): void {
    this.client.destroy();
  }

  /** Same key means same bytes: an object already there is the right content, so HEAD spares the upload. */
  private async putOnce(key: string, bytes: Buffer, contentType: string): Promise<void> {
    if (await this.exists(this.prefix + key)) return;
    await this.write(this.prefix + key, bytes, contentType);
  }

  private async exists(name: string): Promise<boolean> {
    try {
      await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: name }));
      return true;
    } catch (error) {
      // Without s3:ListBucket, S3 answers a missing object with 403, not 404: the PUT then says whether we may write.
      if (isNotFound(error) || httpStatus(error) === 403) return false;
      throw new AssetStoreError('head', error);
    }
  }

  private async write(name: string, bytes: Buffer, contentType: string): Promise<void> {
    try {
      await this.client.send(
        new PutObjectCommand({
          Bucket: this.bucket,
          Key: name,
          Body: bytes,
          ContentLength: bytes.length,
          ContentType: contentType,
          // Originals never change under their key; variants are recomputed from originals (ADR 0034).
          CacheControl: 'public, max-age=31536000, immutable',
        }),
      );
    } catch (error) {
      throw new AssetStoreError('put', error);
    }
  }

  private async read(name: string): Promise<Buffer | null> {
    try {
      const answer = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: name }));
      if (!answer.Body) return null;
      return Buffer.from(await answer.Body.transformToByteArray());
    } catch (error) {
      if (isNotFound(error)) return null;
      throw new AssetStoreError('get', error);
    }
  }
}

function httpStatus(error: unknown): number | null {
  const status = (error as { $metadata?: { httpStatusCode?: unknown } } | null)?.$metadata?.httpStatusCode;
  return typeof status === 'number' ? status : null;
}

/** The S3 error code (NoSuchBucket, AccessDenied…) or the socket's (ECONNREFUSED…), never a URL or a key. */
function errorName(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && /^[A-Z_]+$/.test(code)) return code;
  return error instanceof Error ? error.name : 'Error';
}

/**
 * NoSuchKey (GET), NotFound (HEAD, which has no body to name the error) or another 404, except a missing bucket:
 * that is a configuration fault, thrown rather than answered as an unknown key.
 */
function isNotFound(error: unknown): boolean {
  const name = error instanceof Error ? error.name : '';
  if (name === 'NoSuchBucket') return false;
  return name === 'NoSuchKey' || name === 'NotFound' || httpStatus(error) === 404;
}
