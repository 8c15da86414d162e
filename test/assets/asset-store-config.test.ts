/** BRANDBASE_ASSET_STORE and the BRANDBASE_S3_* settings (config-schema.ts, feature-configs.ts; ADR 0038). */
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/config.js';

const S3 = { BRANDBASE_ASSET_STORE: 's3', BRANDBASE_S3_BUCKET: 'brand-assets' };

describe('asset store configuration', () => {
  it('defaults to the local folder', () => {
    expect(loadConfig({}).assetStore).toEqual({ backend: 'local', s3: null });
    expect(loadConfig({ BRANDBASE_S3_BUCKET: 'ignored' }).assetStore.backend).toBe('local');
  });

  it('reads the bucket settings, with the defaults a user expects', () => {
    expect(loadConfig(S3).assetStore.s3).toEqual({ bucket: 'brand-assets', prefix: '', endpoint: null, region: 'us-east-1', credentials: null, forcePathStyle: false });
    const s3 = loadConfig({
      ...S3,
      BRANDBASE_S3_ENDPOINT: 'http://127.0.0.1:9000/',
      BRANDBASE_S3_REGION: 'auto',
      BRANDBASE_S3_ACCESS_KEY_ID: 'AKIAEXAMPLE',
      BRANDBASE_S3_SECRET_ACCESS_KEY: 'secret-value',
      BRANDBASE_S3_PREFIX: '/brandbase/assets/',
    }).assetStore.s3;
    expect(s3).toEqual({
      bucket: 'brand-assets',
      prefix: 'brandbase/assets/',
      endpoint: 'http://127.0.0.1:9000',
      region: 'auto',
      credentials: { accessKeyId: 'AKIAEXAMPLE', secretAccessKey: 'secret-value' },
      // Path-style by default with an endpoint (S3-compatible servers), overridable.
      forcePathStyle: true,
    });
    expect(loadConfig({ ...S3, BRANDBASE_S3_ENDPOINT: 'https://s3.example', BRANDBASE_S3_FORCE_PATH_STYLE: 'off' }).assetStore.s3?.forcePathStyle).toBe(false);
  });

  it('refuses settings that cannot work, naming the variable and never echoing a secret', () => {
    const refused = (env: Record<string, string>): string => {
      try {
        loadConfig(env);
      } catch (error) {
        expect((error as Error).name).toBe('ConfigError');
        return (error as Error).message;
      }
      throw new Error('accepted');
    };
    expect(refused({ BRANDBASE_ASSET_STORE: 'gcs' })).toBe('BRANDBASE_ASSET_STORE must be local or s3, got "gcs"');
    expect(refused({ BRANDBASE_ASSET_STORE: 's3' })).toBe('BRANDBASE_S3_BUCKET is required when BRANDBASE_ASSET_STORE=s3');
    expect(refused({ ...S3, BRANDBASE_S3_BUCKET: 'Bad_Bucket' })).toContain('BRANDBASE_S3_BUCKET must be an S3 bucket name');
    expect(refused({ ...S3, BRANDBASE_S3_ENDPOINT: 'ftp://user:hunter2@host' })).toBe('BRANDBASE_S3_ENDPOINT must be an http(s) URL');
    expect(refused({ ...S3, BRANDBASE_S3_PREFIX: 'a/../b' })).toContain('BRANDBASE_S3_PREFIX must be a path');
    expect(refused({ ...S3, BRANDBASE_S3_FORCE_PATH_STYLE: 'yes' })).toBe('BRANDBASE_S3_FORCE_PATH_STYLE must be on or off, got "yes"');
    const half = refused({ ...S3, BRANDBASE_S3_SECRET_ACCESS_KEY: 'hunter2' });
    expect(half).toBe('BRANDBASE_S3_ACCESS_KEY_ID and BRANDBASE_S3_SECRET_ACCESS_KEY must be set together');
  });
});
