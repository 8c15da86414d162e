/**
 * The S3 backend: the asset-store contract against a real S3-compatible server (s3rver on loopback) through the real
 * AWS SDK over HTTP, plus what only a bucket has (object names under the prefix, stored content types, errors).
 */
import { randomUUID } from 'node:crypto';
import { HeadObjectCommand, ListObjectsV2Command, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AssetStoreError, S3AssetStore, type S3AssetStoreOptions } from '../../src/assets/s3/s3-asset-store.js';
import { isRetryable } from '../../src/domain/errors.js';
import { assetStoreContract } from './asset-store.contract.js';
import { S3RVER_CREDENTIALS, startS3Server, type S3Server } from './s3-server.js';

const BUCKET = 'brandbase-assets';
let server: S3Server;
let client: S3Client;

beforeAll(async () => {
  server = await startS3Server([BUCKET]);
  client = new S3Client({ region: 'us-east-1', endpoint: server.endpoint, credentials: S3RVER_CREDENTIALS, forcePathStyle: true });
});
afterAll(async () => {
  client.destroy();
  await server.close();
});

function options(prefix: string, overrides: Partial<S3AssetStoreOptions> = {}): S3AssetStoreOptions {
  return { bucket: BUCKET, prefix, endpoint: server.endpoint, region: 'us-east-1', credentials: S3RVER_CREDENTIALS, forcePathStyle: true, ...overrides };
}

async function objectNames(prefix: string): Promise<string[]> {
  const listed = await client.send(new ListObjectsV2Command({ Bucket: BUCKET, Prefix: prefix }));
  return (listed.Contents ?? []).map((object) => object.Key ?? '').sort();
}

// Each test gets its own prefix in the one bucket: separate installations sharing a bucket, as in production.
assetStoreContract('S3-compatible server (s3rver, AWS SDK over HTTP)', async () => {
  const prefix = `test-${randomUUID()}/`;
  const opened: S3AssetStore[] = [];
  const open = (): S3AssetStore => {
    const store = new S3AssetStore(options(prefix));
    opened.push(store);
    return store;
  };
  return {
    store: open(),
    twin: open,
    originals: async () => (await objectNames(prefix)).map((name) => name.slice(prefix.length)).filter((name) => !name.startsWith('variants/')),
    plant: async (name, bytes) => void (await client.send(new PutObjectCommand({ Bucket: BUCKET, Key: prefix + name, Body: bytes }))),
    dispose: async () => opened.forEach((store) => store.close()),
  };
});

describe('S3AssetStore (bucket specifics)', () => {
  it('names objects <prefix><key> and <prefix>variants/<key>, and stores each with its content type', async () => {
    const prefix = `named-${randomUUID()}/`;
    const store = new S3AssetStore(options(prefix));
    const logo = await store.put(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'), 'svg');
    await store.putVariant(logo.key, Buffer.from('variant'));
    expect(await objectNames(prefix)).toEqual([prefix + logo.key, `${prefix}variants/${logo.key}`]);
    const head = await client.send(new HeadObjectCommand({ Bucket: BUCKET, Key: prefix + logo.key }));
    expect(head.ContentType).toBe('image/svg+xml');
    expect(head.ContentLength).toBe(41);
    store.close();
  });

  it('works without a prefix: keys are object names at the bucket root', async () => {
    const store = new S3AssetStore(options(''));
    const stored = await store.put(Buffer.from(`root ${randomUUID()}`), 'png');
    expect(await objectNames(stored.key)).toEqual([stored.key]);
    expect((await store.get(stored.key))?.contentType).toBe('image/png');
    store.close();
  });

  it('throws, not null, when the bucket does not exist: a configuration fault is not worth retrying', async () => {
    const store = new S3AssetStore(options('', { bucket: 'no-such-bucket' }));
    const put = await store.put(Buffer.from('x'), 'png').catch((error: unknown) => error);
    expect(put).toBeInstanceOf(AssetStoreError);
    expect((put as Error).message).toBe('asset store put failed: NoSuchBucket (HTTP 404)');
    expect(isRetryable(put)).toBe(false);
    await expect(store.get(`${'a'.repeat(64)}.png`)).rejects.toThrow('asset store get failed: NoSuchBucket (HTTP 404)');
    store.close();
  });

  it('refuses wrong credentials without naming them', async () => {
    const store = new S3AssetStore(options('', { credentials: { accessKeyId: 'UNKNOWNKEY', secretAccessKey: 'wrong-secret-value' } }));
    const error = (await store.get(`${'a'.repeat(64)}.png`).catch((e: unknown) => e)) as Error;
    expect(error).toBeInstanceOf(AssetStoreError);
    expect(error.message).toMatch(/^asset store get failed: InvalidAccessKeyId \(HTTP 403\)$/);
    expect(isRetryable(error)).toBe(false);
    // A HEAD refused with 403 (as S3 answers a missing object without s3:ListBucket) goes on to the PUT, which says why.
    await expect(store.put(Buffer.from('z'), 'png')).rejects.toThrow(/^asset store put failed: InvalidAccessKeyId \(HTTP 403\)$/);
    store.close();
  });

  it('reports an unreachable server as a retryable error', async () => {
    const down = await startS3Server([BUCKET]);
    await down.close();
    const store = new S3AssetStore({ ...options(''), endpoint: down.endpoint });
    const error = await store.put(Buffer.from('y'), 'png').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AssetStoreError);
    expect((error as Error).message).toMatch(/^asset store head failed: ECONNREFUSED$/);
    expect(isRetryable(error)).toBe(true);
    store.close();
  });
});
