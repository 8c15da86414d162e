import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../../src/domain/errors.js';

const doc = readFileSync(new URL('../../docs/errors.md', import.meta.url), 'utf8');

describe('docs/errors.md', () => {
  it.each(Object.entries(ERROR_CODES))('documents %s with its status and header', (code, def) => {
    const row = doc.split('\n').find((line) => line.startsWith(`| \`${code}\` |`));
    expect(row, `missing row for ${code}`).toBeDefined();
    expect(row).toContain(`| ${def.status} |`);
    if ('header' in def) expect(row).toContain(`\`${def.header}\``);
  });

  it('has no row for a code that does not exist', () => {
    const documented = [...doc.matchAll(/^\| `([a-z_]+)` \|/gm)].map((m) => m[1]);
    expect(documented.sort()).toEqual(Object.keys(ERROR_CODES).sort());
  });
});
