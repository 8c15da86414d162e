/**
 * docs/configuration.md against the schema (src/config/config-schema.ts): every setting documented with its default
 * and line, nothing documented that is not a setting. The tables are generated (`npm run config-docs`).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { configDocProblems, renderConfigDoc } from '../../src/config/config-doc.js';
import { loadConfig } from '../../src/config/config.js';

const doc = readFileSync(new URL('../../docs/configuration.md', import.meta.url), 'utf8');

describe('docs/configuration.md', () => {
  it('is as generated from the schema', () => {
    expect(configDocProblems(doc)).toEqual([]);
    expect(renderConfigDoc(doc)).toBe(doc);
  });

  it('documents the defaults the loader uses', () => {
    const config = loadConfig({});
    expect(doc).toContain('| `PORT` | `8787` |');
    expect(doc).toContain(`| \`BRANDBASE_CRAWL_TIMEOUT_MS\` | \`${config.crawlTimeoutMs}\` |`);
    expect(doc).toContain(`| \`BRANDBASE_QUEUE_MAX_DEPTH\` | \`${config.queueMaxDepth}\` |`);
    expect(doc).toContain(`| \`BRANDBASE_CDN_MAX_AGE\` | \`${config.cdn.maxAgeSeconds}\` |`);
    expect(doc).toContain(`| \`BRANDBASE_X402_PAY_TO\` | \`${config.payments.payTo}\` |`);
  });

  it('the check fails when a setting is missing from the page', () => {
    const without = doc.replace(/^\| `BRANDBASE_CDN_MEMORY_MB` \|.*\n/m, '');
    expect(without).not.toBe(doc);
    expect(configDocProblems(without)).toEqual(['BRANDBASE_CDN_MEMORY_MB is a setting but is not documented']);
  });

  it('the check fails when the page documents a setting that does not exist, or another default', () => {
    const extra = doc.replace('| `PORT` |', '| `BRANDBASE_PORT` | `8787` | Not a setting. |\n| `PORT` |');
    expect(configDocProblems(extra)).toEqual(['BRANDBASE_PORT is documented but is not a setting']);
    const stale = doc.replace('| `BRANDBASE_CRAWL_TIMEOUT_MS` | `20000` |', '| `BRANDBASE_CRAWL_TIMEOUT_MS` | `30000` |');
    expect(configDocProblems(stale)).toEqual([expect.stringMatching(/^BRANDBASE_CRAWL_TIMEOUT_MS is documented as\n.*`30000`.*\nbut the schema says\n.*`20000`/)]);
  });

  it('the check fails when a table is out of schema order or its markers are gone', () => {
    const swapped = doc.replace(/^(\| `HOST` \|.*\n)(\| `BRANDBASE_CONFIG_FILE` \|.*\n)/m, '$2$1');
    expect(swapped).not.toBe(doc);
    expect(configDocProblems(swapped)).toEqual(['the settings tables are not in schema order: run npm run config-docs']);
    expect(configDocProblems(doc.replace('<!-- settings:metrics -->\n', ''))).toEqual(['the settings table "metrics" has no <!-- settings:metrics --> block']);
  });
});
