/**
 * Assets in object storage on real processes (issue 22 item 3, ADR 0038): `brandbase serve` configured with the S3
 * backend crawls a fixture site (its crawl workers write through the bucket), and every `src` of the record is
 * answered by `/assets/{key}` with the very bytes the bucket holds, read back here with the AWS SDK. Nothing lands in
 * the local asset folder, the logo CDN keeps its variant in the bucket, and the credentials never appear in the
 * server's output.
 */
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { GetObjectCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Brand, Format } from '../../src/domain/brand.js';
import { S3RVER_CREDENTIALS, startS3Server, type S3Server } from '../assets/s3-server.js';
import { FIXTURE_HOSTS, startFixtureSites, type FixtureSites } from '../helpers/fixture-sites.js';
import { runJson, startServer, type ServerProcess } from '../helpers/brandbase-process.js';

const TIMEOUT_MS = 120_000;
const BUCKET = 'brand-assets';
const PREFIX = 'fleet-a/';
const PUBLIC = 'http://brands.test:8787';
const CONTENT_TYPES: Record<Format['format'], string> = { svg: 'image/svg+xml', png: 'image/png', webp: 'image/webp', jpeg: 'image/jpeg' };

let sites: FixtureSites;
let s3: S3Server;
let client: S3Client;
let dataDir: string;
let env: Record<string, string>;
let key: string;
let clientId: string;
let server: ServerProcess | undefined;

beforeAll(async () => {
  [sites, s3] = await Promise.all([startFixtureSites(), startS3Server([BUCKET])]);
  client = new S3Client({ region: 'us-east-1', endpoint: s3.endpoint, credentials: S3RVER_CREDENTIALS, forcePathStyle: true });
  dataDir = await mkdtemp(path.join(tmpdir(), 'brandbase-s3-assets-'));
  env = {
    BRANDBASE_DATA_DIR: dataDir,
    BRANDBASE_CRAWL_HOSTS: JSON.stringify(sites.hostMap),
    BRANDBASE_PUBLIC_URL: PUBLIC,
    BRANDBASE_LOG_LEVEL: 'info',
    BRANDBASE_ASSET_STORE: 's3',
    BRANDBASE_S3_BUCKET: BUCKET,
    BRANDBASE_S3_ENDPOINT: s3.endpoint,
    BRANDBASE_S3_PREFIX: PREFIX,
    BRANDBASE_S3_ACCESS_KEY_ID: S3RVER_CREDENTIALS.accessKeyId,
    BRANDBASE_S3_SECRET_ACCESS_KEY: S3RVER_CREDENTIALS.secretAccessKey,
  };
  const org = await runJson(['orgs', 'create', '--name', 'Bucket', '--plan', 'paid'], env);
  key = String((await runJson(['keys', 'create', '--org', String(org.id)], env)).key);
  clientId = String((await runJson(['client-ids', 'create', '--org', String(org.id)], env)).id);
}, TIMEOUT_MS);

afterAll(async () => {
  if (server?.child.exitCode === null) server.child.kill('SIGKILL');
  client?.destroy();
  await Promise.all([sites?.close(), s3?.close()]);
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

async function bucketObject(name: string): Promise<Buffer> {
  const answer = await client.send(new GetObjectCommand({ Bucket: BUCKET, Key: name }));
  return Buffer.from(await answer.Body!.transformToByteArray());
}

describe('assets in an S3-compatible bucket', () => {
  it('a crawl writes every file to the bucket and /assets/{key} answers the bucket’s bytes', async () => {
    server = await startServer(env);
    const res = await fetch(`${server.baseUrl}/v2/brands/${FIXTURE_HOSTS.lumen}`, { headers: { authorization: `Bearer ${key}` } });
    expect(res.status).toBe(200);
    const brand = (await res.json()) as Brand;
    const formats = [...brand.logos, ...brand.images].flatMap((entry) => entry.formats);
    expect(brand.logos.length).toBeGreaterThan(0);
    expect(new Set(formats.map((f) => f.format))).toEqual(new Set(['svg', 'png', 'webp', 'jpeg']));

    const listed = await client.send(new ListObjectsV2Command({ Bucket: BUCKET, Prefix: PREFIX }));
    const objects = new Set((listed.Contents ?? []).map((object) => object.Key));
    for (const format of formats) {
      // Records keep keys; the src is rendered under the public URL (ADR 0011), whatever the backend.
      expect(format.src.startsWith(`${PUBLIC}/assets/`)).toBe(true);
      const assetKey = format.src.slice(`${PUBLIC}/assets/`.length);
      expect(objects.has(PREFIX + assetKey)).toBe(true);
      const served = await fetch(`${server.baseUrl}/assets/${assetKey}`);
      expect(served.status).toBe(200);
      expect(served.headers.get('content-type')).toBe(CONTENT_TYPES[format.format]);
      const bytes = Buffer.from(await served.arrayBuffer());
      expect(bytes.length).toBe(format.size);
      expect(bytes.equals(await bucketObject(PREFIX + assetKey))).toBe(true);
    }
    // An unknown key is the spec's 404, answered through the same port.
    expect((await fetch(`${server.baseUrl}/assets/${'0'.repeat(64)}.png`)).status).toBe(404);

    // The logo CDN renders a variant once and keeps it in the bucket's variant area, apart from the originals (beside
    // the common sizes the crawl pre-rendered there, ADR 0051; 48 px is not one of them).
    const variantKeys = async (): Promise<string[]> =>
      ((await client.send(new ListObjectsV2Command({ Bucket: BUCKET, Prefix: `${PREFIX}variants/` }))).Contents ?? []).map((o) => o.Key!);
    const before = new Set(await variantKeys());
    const logo = await fetch(`${server.baseUrl}/logo/${FIXTURE_HOSTS.lumen}/w/48.png?c=${clientId}`);
    expect(logo.status).toBe(200);
    expect(logo.headers.get('content-type')).toBe('image/png');
    const variantBytes = Buffer.from(await logo.arrayBuffer());
    const added = (await variantKeys()).filter((key) => !before.has(key));
    expect(added).toHaveLength(1);
    expect((await bucketObject(added[0]!)).equals(variantBytes)).toBe(true);

    // Nothing was written to the local asset folder, and the secret was never printed.
    expect(await readdir(path.join(dataDir, 'assets')).catch(() => [])).toEqual([]);
    expect(server.output()).not.toContain(S3RVER_CREDENTIALS.secretAccessKey);
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
  }, TIMEOUT_MS);
});
