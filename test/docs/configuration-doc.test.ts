import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ENV_VARS, loadConfig } from '../../src/config/config.js';

const doc = readFileSync(new URL('../../docs/configuration.md', import.meta.url), 'utf8');
const source = readFileSync(new URL('../../src/config/config.ts', import.meta.url), 'utf8');

describe('docs/configuration.md', () => {
  it.each(ENV_VARS)('documents %s', (name) => {
    expect(doc).toContain(`| \`${name}\` |`);
  });

  it('ENV_VARS lists every variable the config reads', () => {
    const read = new Set([...source.matchAll(/env, '([A-Z_]+)'/g)].map((m) => m[1]));
    expect([...read].sort()).toEqual([...ENV_VARS].filter((v) => read.has(v)).sort());
    for (const name of read) expect(ENV_VARS).toContain(name);
  });

  it('documents the defaults the code uses', () => {
    const config = loadConfig({});
    expect(config.port).toBe(8787);
    expect(config.publicUrl).toBe('http://localhost:8787');
    expect(doc).toContain('| `PORT` | `8787` |');
    expect(doc).toContain(`| \`BRANDBASE_CRAWL_TIMEOUT_MS\` | \`${config.crawlTimeoutMs}\` |`);
    expect(doc).toContain(`| \`BRANDBASE_QUEUE_MAX_DEPTH\` | \`${config.queueMaxDepth}\` |`);
    expect(doc).toContain(`| \`BRANDBASE_KEY_CACHE_MS\` | \`${config.keyCacheMs}\` |`);
  });
});
