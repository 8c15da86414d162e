/**
 * `brandbase refresh status|run` (src/cli/refresh-commands.ts, docs/refresh.md), run in-process through the real
 * program on a temp SQLite store: what is stale and due, queueing by hand in refresh order within the bounds,
 * `--json` printing one object.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildProgram } from '../../src/cli/program.js';
import { openSqliteStore } from '../store/open-store.js';
import { sampleBrand } from '../store/sample-brand.js';

let dir: string;
const saved = { ...process.env };
const DAY = 86_400_000;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'brandbase-refresh-cli-'));
  process.env.BRANDBASE_DATA_DIR = dir;
  // An empty configuration file: the installation's own brandbase.env (if any) must not apply.
  process.env.BRANDBASE_CONFIG_FILE = path.join(dir, 'brandbase.env');
  await writeFile(process.env.BRANDBASE_CONFIG_FILE, '');
  delete process.env.BRANDBASE_DATABASE_URL;
  process.env.BRANDBASE_REFRESH_AGE_DAYS = '30';
  process.env.BRANDBASE_REFRESH_PER_TICK = '2';
});
afterAll(async () => {
  process.env = saved;
  await rm(dir, { recursive: true, force: true });
});
afterEach(() => {
  process.exitCode = undefined;
});

async function run(...args: string[]): Promise<{ out: string; code: number }> {
  const out: string[] = [];
  const log = vi.spyOn(console, 'log').mockImplementation((...parts: unknown[]) => void out.push(parts.join(' ')));
  const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
  try {
    process.exitCode = undefined;
    await buildProgram().exitOverride().parseAsync(['node', 'brandbase', ...args]);
  } finally {
    log.mockRestore();
    stderr.mockRestore();
  }
  return { out: out.join('\n'), code: Number(process.exitCode ?? 0) };
}

async function json(...args: string[]): Promise<Record<string, any>> { // eslint-disable-line @typescript-eslint/no-explicit-any -- printed JSON
  const result = await run(...args, '--json');
  expect(result.code).toBe(0);
  expect(result.out.split('\n')).toHaveLength(1);
  return JSON.parse(result.out);
}

/** Brands written as crawls would have, `daysAgo` days before now, in the store the commands open. */
async function hold(brands: Record<string, number>, lookups: Record<string, number> = {}): Promise<void> {
  const { close, stores } = await openSqliteStore({ file: path.join(dir, 'brandbase.sqlite') });
  try {
    for (const [domain, daysAgo] of Object.entries(brands)) {
      const at = new Date(Date.now() - daysAgo * DAY);
      const brand = sampleBrand(domain);
      await stores.brands.saveBrand({ brand, status: 'indexed', crawledAt: at, createdAt: at, updatedAt: at }, [{ kind: 'domain', value: domain }]);
      if (lookups[domain]) await stores.brands.addBrandLookups([{ brandId: brand.id, lookups: lookups[domain], lastLookupAt: new Date() }]);
    }
  } finally {
    await close();
  }
}

describe('brandbase refresh', () => {
  it('status says what is stale and due; run queues the next ones in order; status then shows them queued', async () => {
    const empty = await json('refresh', 'status');
    expect(empty).toMatchObject({ enabled: true, refreshAgeDays: 30, perTick: 2, stale: 0, queued: 0, running: 0, leader: null, lastRun: null, next: [] });

    await hold({ 'old.test': 100, 'older.test': 200, 'popular.test': 40, 'fresh.test': 3 }, { 'popular.test': 12 });
    const before = await json('refresh', 'status');
    expect(before.stale).toBe(3);
    expect(before.next.map((b: { domain: string }) => b.domain)).toEqual(['popular.test', 'older.test', 'old.test']);
    expect(before.next[0]).toMatchObject({ lookups: 12, subscribed: false });

    // One tick's worth (BRANDBASE_REFRESH_PER_TICK=2) without --limit.
    const ran = await json('refresh', 'run');
    expect(ran).toMatchObject({ queued: 2, deferred: 1, by: 'cli' });
    expect(ran.brands.map((b: { domain: string }) => b.domain)).toEqual(['popular.test', 'older.test']);

    const after = await json('refresh', 'status');
    expect(after).toMatchObject({ stale: 3, queued: 2, running: 0, lastRun: { queued: 2, deferred: 1, by: 'cli' } });
    expect(after.next.map((b: { domain: string }) => b.domain)).toEqual(['old.test']);

    const text = await run('refresh', 'run', '--limit', '5');
    expect(text.code).toBe(0);
    expect(text.out).toContain('1 refresh crawls queued');
    expect(text.out).toContain('old.test');
    const nothing = await run('refresh', 'run');
    expect(nothing.out).toMatch(/^nothing queued/);
    const status = await run('refresh', 'status');
    expect(status.out).toContain('stale brands: 3');
    expect(status.out).toContain('refresh crawls queued: 3');
    expect(status.out).toContain('nothing is due');
  });
});
