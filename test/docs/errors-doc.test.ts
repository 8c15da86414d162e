import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CRAWL_FAILURES } from '../../src/domain/crawl-failures.js';
import { ERROR_CODES, type ErrorDefinition } from '../../src/domain/errors.js';

const doc = readFileSync(new URL('../../docs/errors.md', import.meta.url), 'utf8');
const [codesSection = '', crawlSection = ''] = doc.split('## Crawl failures');

function rowOf(section: string, code: string): string | undefined {
  return section.split('\n').find((line) => line.startsWith(`| \`${code}\` |`));
}

function documented(section: string): string[] {
  return [...section.matchAll(/^\| `([a-z_]+)` \|/gm)].map((m) => m[1] ?? '').sort();
}

describe('docs/errors.md', () => {
  it.each(Object.entries(ERROR_CODES))('documents %s with its status, header and retryable flag', (code, def: ErrorDefinition) => {
    const row = rowOf(codesSection, code);
    expect(row, `missing row for ${code}`).toBeDefined();
    expect(row).toContain(`| ${def.status} |`);
    if (def.header) expect(row).toContain(`\`${def.header}\``);
    expect(row).toContain(def.retryable ? '| yes |' : '| no |');
  });

  it('has no row for a code that does not exist', () => {
    expect(documented(codesSection)).toEqual(Object.keys(ERROR_CODES).sort());
  });

  it.each(Object.entries(CRAWL_FAILURES))('documents the crawl failure %s with its retryable flag', (reason, def) => {
    const row = rowOf(crawlSection, reason);
    expect(row, `missing row for ${reason}`).toBeDefined();
    expect(row).toContain(def.retryable ? '| yes |' : '| no |');
  });

  it('lists exactly the crawl failure reasons that exist', () => {
    expect(documented(crawlSection)).toEqual(Object.keys(CRAWL_FAILURES).sort());
  });
});
