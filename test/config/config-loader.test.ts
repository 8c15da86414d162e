/**
 * The one loader over the schema (src/config/config-schema.ts): every setting unset or blank takes its default,
 * every malformed value is refused at start with a ConfigError naming the setting, and the rules that span settings
 * hold. Single settings' own behaviour is tested beside their feature (assets, payments, trust proxy, job lease...).
 */
import { describe, expect, it } from 'vitest';
import { CONFIG_SCHEMA, type SettingName } from '../../src/config/config-schema.js';
import { ConfigError, loadConfig } from '../../src/config/config.js';

/** A value of the wrong form for every setting that has a form (free text and paths of any name accept anything). */
const MALFORMED: Partial<Record<SettingName, string>> = {
  PORT: '70000',
  BRANDBASE_PUBLIC_URL: 'brands.example.com',
  BRANDBASE_CRAWL_HOSTS: '["acme.test"]',
  BRANDBASE_SECRET_KEY: 'short',
  BRANDBASE_LOG_LEVEL: 'verbose',
  BRANDBASE_CRAWL_ISOLATION: 'container',
  BRANDBASE_CRAWL_MEMORY_MB: '128',
  BRANDBASE_PALETTE_RENDER: 'yes',
  BRANDBASE_TRUST_PROXY: 'proxy.internal',
  BRANDBASE_X402_NETWORK: 'base',
  BRANDBASE_WEBHOOK_SOURCE_ADDRESSES: '203.0.113.7,mail.example.com',
  BRANDBASE_CDN_PATH: '/logo/../admin',
  BRANDBASE_CDN_BASE_URL: 'ftp://cdn.example.com',
  BRANDBASE_ASSET_STORE: 'gcs',
  BRANDBASE_S3_PREFIX: 'a b',
  BRANDBASE_METRICS_TOKEN: 'short',
  BRANDBASE_METRICS_PORT: '-1',
};

function refusal(env: Record<string, string>): ConfigError {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error(`accepted ${JSON.stringify(env)}`);
}

describe('the configuration loader', () => {
  it('takes each setting’s default when it is unset or blank', () => {
    const defaults = loadConfig({});
    for (const name of Object.keys(CONFIG_SCHEMA)) expect(loadConfig({ [name]: '  ' }), name).toEqual(defaults);
  });

  it('refuses a whole-number setting that is not a whole number or is out of range, naming it and its range', () => {
    expect(refusal({ BRANDBASE_CRAWL_TIMEOUT_MS: '999' }).message).toBe('BRANDBASE_CRAWL_TIMEOUT_MS must be an integer >= 1000, got "999"');
    expect(refusal({ BRANDBASE_WEBHOOK_SENDERS: '65' }).message).toBe('BRANDBASE_WEBHOOK_SENDERS must be an integer from 0 to 64, got "65"');
    expect(refusal({ BRANDBASE_SEARCH_RATE_PER_IP: '1.5' }).message).toBe('BRANDBASE_SEARCH_RATE_PER_IP must be an integer >= 1, got "1.5"');
    expect(refusal({ BRANDBASE_CDN_PORT: 'eighty' }).message).toBe('BRANDBASE_CDN_PORT must be an integer from 0 to 65535, got "eighty"');
  });

  it.each(Object.entries(MALFORMED))('refuses %s=%s, naming the setting', (name, value) => {
    expect(refusal({ [name]: value }).message).toMatch(new RegExp(`^${name}\\b`));
  });

  it('refuses every whole-number setting below its minimum', () => {
    const numbers = Object.entries(CONFIG_SCHEMA).filter(([, setting]) => setting.kind === 'int');
    expect(numbers.length).toBeGreaterThan(60);
    for (const [name] of numbers) expect(refusal({ [name]: '-1' }).message, name).toMatch(new RegExp(`^${name} must be an integer (>=|from) `));
  });

  it('derives the defaults that depend on other settings', () => {
    const config = loadConfig({ PORT: '9000', BRANDBASE_WORKER_CONCURRENCY: '4', BRANDBASE_CDN_HOST: 'Logo.Example.com', BRANDBASE_CRAWL_FAILURE_MEMORY_MS: '120000', BRANDBASE_CRAWL_FAILURE_MEMORY_MAX_MS: '1000' });
    expect(config.publicUrl).toBe('http://localhost:9000');
    expect(config.assetBaseUrl).toBe('http://localhost:9000/assets/');
    expect(config.crawlWorkers).toBe(5);
    expect(config.cdn).toMatchObject({ host: 'logo.example.com', path: '', baseUrl: 'http://logo.example.com' });
    expect(config.crawlFailureMemoryMaxMs).toBe(120_000);
    expect(loadConfig({}).cdn).toMatchObject({ port: null, path: '/logo', baseUrl: 'http://localhost:8787/logo' });
    expect(loadConfig({ BRANDBASE_CDN_PORT: '0', BRANDBASE_CDN_PATH: '/' }).cdn).toMatchObject({ port: 0, path: '', baseUrl: 'http://localhost:0' });
    expect(loadConfig({ BRANDBASE_JOB_RETENTION_DAYS: '0' }).jobRetentionMs).toBeNull();
  });
});
