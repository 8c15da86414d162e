/**
 * `brandbase refdata import <dir> --format nsi` (src/cli/refdata-commands.ts) run in-process through the real program
 * on a temp SQLite store: the store opens with the embedded knowledge set, a newer package (the test's fixture)
 * replaces it as a whole, `refdata status` shows it, and a folder that is no package is a one-line usage error.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildProgram } from '../../src/cli/program.js';
import { writeNsiPackage } from '../refdata/nsi-fixture.js';

let dir: string;
let pkg: string;
const saved = { ...process.env };

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'brandbase-refdata-cli-'));
  process.env.BRANDBASE_DATA_DIR = dir;
  process.env.BRANDBASE_CONFIG_FILE = path.join(dir, 'brandbase.env');
  await writeFile(process.env.BRANDBASE_CONFIG_FILE, '');
  delete process.env.BRANDBASE_DATABASE_URL;
  pkg = await writeNsiPackage(1, dir);
});
afterAll(async () => {
  process.env = saved;
  await rm(dir, { recursive: true, force: true });
});
afterEach(() => {
  process.exitCode = undefined;
});

async function run(...args: string[]): Promise<{ out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const log = vi.spyOn(console, 'log').mockImplementation((...parts: unknown[]) => void out.push(parts.join(' ')));
  const error = vi.spyOn(console, 'error').mockImplementation((...parts: unknown[]) => void err.push(parts.join(' ')));
  try {
    await buildProgram().exitOverride().parseAsync(['node', 'brandbase', ...args]);
  } finally {
    log.mockRestore();
    error.mockRestore();
  }
  return { out: out.join('\n'), err: err.join('\n') };
}

describe('brandbase refdata import --format nsi', () => {
  it('replaces the embedded knowledge set with the package given (the folder npm pack unpacks, or its parent)', async () => {
    const report = JSON.parse((await run('refdata', 'import', path.dirname(pkg), '--format', 'nsi', '--json')).out);
    expect(report).toMatchObject({ format: 'nsi', source: 'nsi', sourceDate: '2099-01-01', rowsRead: 12, inserted: 3 });
    // The store was new: it opened with the shipped set, which the fixture package replaced as a whole.
    expect(report.removed).toBeGreaterThan(13_000);
    expect(report.skipped['no-wikidata']).toMatchObject({ count: 1 });
    const status = JSON.parse((await run('refdata', 'status', '--json')).out);
    expect(status.sources).toContainEqual({ table: 'brands', source: 'nsi', rows: 3, sourceDate: '2099-01-01' });
    const text = (await run('refdata', 'import', pkg, '--format', 'nsi')).out;
    expect(text).toContain('read 12, inserted 0, updated 0, unchanged 3, contradictions 0');
    expect(text).toContain('skipped social-profile: 1 (e.g. pizzasocial-333333 (Pizza Social, Q3))');
  }, 120_000);

  it('a folder that is no package is a one-line error, exit code 2', async () => {
    const { err } = await run('refdata', 'import', dir, '--format', 'nsi');
    expect(process.exitCode).toBe(2);
    expect(err).toBe(`brandbase: ${dir} is not an unpacked name-suggestion-index package: expected dist/json/nsi.json and dist/wikidata/wikidata.min.json in it (or in its package/ folder)`);
  });
});
