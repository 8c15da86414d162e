/**
 * `brandbase generate-brands` (src/cli/generate-commands.ts over the store's bulk insert,
 * src/brands/store/bulk-brand-rows.ts), run in-process through the real program on SQLite and PostgreSQL: the
 * generated brands are answered by the HTTP API like crawled ones (by domain, ticker and brand id, valid per the
 * response schema), found by name search, written in batches (one brand write log entry per transaction), never
 * written twice, and the records are a pure function of (seed, number).
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Value } from '@sinclair/typebox/value';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildProgram } from '../../src/cli/program.js';
import { generatedBrand } from '../../src/cli/generated-brand.js';
import { normalizeName } from '../../src/domain/search-text.js';
import { BrandSchema, SHARED_SCHEMAS } from '../../src/http/schemas/brand-schema.js';
import { sharedPostgres, sharedSqlite, type SharedDatabase } from '../helpers/shared-database.js';
import { bearer, startTestStack, type TestStack } from '../helpers/test-stack.js';
import { PG_URL } from '../store/temp-database.js';
import { always, needsPostgres, type Gated } from '../helpers/optional.js';

const saved = { ...process.env };
const SEED = 7;
const COUNT = 2000;
const BATCH = 700;

afterEach(() => {
  process.exitCode = undefined;
});

async function generate(env: Record<string, string>, ...args: string[]): Promise<{ inserted: number; skipped: number; requested: number }> {
  const out: string[] = [];
  const log = vi.spyOn(console, 'log').mockImplementation((...parts: unknown[]) => void out.push(parts.join(' ')));
  const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
  process.env = { ...saved, ...env, BRANDBASE_CONFIG_FILE: path.join(env.BRANDBASE_DATA_DIR ?? '', 'brandbase.env') };
  delete process.env.BRANDBASE_DATABASE_URL;
  if (env.BRANDBASE_DATABASE_URL) process.env.BRANDBASE_DATABASE_URL = env.BRANDBASE_DATABASE_URL;
  try {
    await buildProgram().exitOverride().parseAsync(['node', 'brandbase', 'generate-brands', ...args, '--json']);
  } finally {
    log.mockRestore();
    stderr.mockRestore();
    process.env = { ...saved };
  }
  expect(process.exitCode ?? 0).toBe(0);
  return JSON.parse(out.join('\n')) as { inserted: number; skipped: number; requested: number };
}

function suite(name: string, open: () => Promise<SharedDatabase>, gate: Gated) {
  gate.describe(`generate-brands on ${name}`, () => {
    let db: SharedDatabase;
    let stack: TestStack;
    let key: string;

    beforeAll(async () => {
      db = await open();
      // An empty configuration file: the installation's own brandbase.env (if any) must not apply.
      await writeFile(path.join(db.dataDir, 'brandbase.env'), '');
      const first = await generate(db.env, '--count', String(COUNT), '--seed', String(SEED), '--batch', String(BATCH));
      expect(first).toMatchObject({ requested: COUNT, inserted: COUNT, skipped: 0 });
      stack = await startTestStack(db.env);
      key = (await stack.newKey()).key;
    }, 300_000);
    afterAll(async () => {
      await stack?.close();
      await db?.cleanup();
    });

    it('answers generated brands by domain, ticker and id, valid per the response schema', async () => {
      for (const n of [0, 1, 999, COUNT - 1]) {
        const expected = generatedBrand(SEED, n, new Date()).stored.brand;
        const res = await stack.app.inject({ method: 'GET', url: `/v2/brands/${expected.domain}`, headers: bearer(key) });
        expect(res.statusCode).toBe(200);
        const body = res.json<Record<string, unknown>>();
        expect(Value.Check(BrandSchema, SHARED_SCHEMAS, body), JSON.stringify([...Value.Errors(BrandSchema, SHARED_SCHEMAS, body)].slice(0, 3))).toBe(true);
        expect(body).toMatchObject({ id: expected.id, name: expected.name, domain: expected.domain, description: expected.description });
        const byId = await stack.app.inject({ method: 'GET', url: `/v2/brands/${expected.id}`, headers: bearer(key) });
        expect(byId.json()).toMatchObject({ domain: expected.domain });
      }
      const listed = generatedBrand(SEED, 20, new Date());
      const ticker = listed.identifiers.find((ref) => ref.kind === 'ticker')?.value;
      expect(ticker).toMatch(/^ZX[A-Z]{4}$/);
      const byTicker = await stack.app.inject({ method: 'GET', url: `/v2/brands/ticker/${ticker}`, headers: bearer(key) });
      expect(byTicker.statusCode).toBe(200);
      expect(byTicker.json()).toMatchObject({ id: listed.stored.brand.id });
      // Asset keys are rendered as URLs like a crawled record's.
      expect(JSON.stringify(byTicker.json())).toMatch(/"src":"http:\/\/brandbase\.test\/assets\/[0-9a-f]{64}\.png"/);
    });

    it('indexes the generated brands for search by name, like saveBrand', async () => {
      const brand = generatedBrand(SEED, 42, new Date()).stored.brand;
      const norm = normalizeName(brand.name ?? '');
      const rows = await stack.services.stores.search.searchNameCandidates({ norm, variants: [], limit: 50 });
      expect(rows.find((row) => row.domain === brand.domain)).toMatchObject({ source: 'brand', brandId: brand.id, name: brand.name });
    });

    it('writes in batches: one brand write log entry per transaction, and nothing the second time', async () => {
      expect(await stack.services.stores.brands.latestBrandWrite()).toBe(Math.ceil(COUNT / BATCH));
      const again = await generate(db.env, '--count', String(COUNT), '--seed', String(SEED), '--batch', String(BATCH));
      expect(again).toMatchObject({ inserted: 0, skipped: COUNT });
      expect(await stack.services.stores.brands.latestBrandWrite()).toBe(Math.ceil(COUNT / BATCH));
      // --from extends the set: numbers 2000..2099 are new.
      const more = await generate(db.env, '--count', '100', '--from', String(COUNT), '--seed', String(SEED));
      expect(more).toMatchObject({ inserted: 100 });
      const last = generatedBrand(SEED, COUNT + 99, new Date()).stored.brand;
      const res = await stack.app.inject({ method: 'GET', url: `/v2/brands/${last.domain}`, headers: bearer(key) });
      expect(res.json()).toMatchObject({ id: last.id });
      expect(await stack.services.stores.brands.listIdentifiers(generatedBrand(SEED, 0, new Date()).stored.brand.id)).toEqual([
        { kind: 'domain', value: generatedBrand(SEED, 0, new Date()).stored.brand.domain },
        { kind: 'ticker', value: 'ZXAAAA' },
      ]);
    });
  });
}

suite('sqlite', sharedSqlite, always);
suite('postgres', () => sharedPostgres(PG_URL ?? ''), needsPostgres);

describe('generated records', () => {
  it('are a pure function of (seed, number): the same whatever the order, different for another seed', () => {
    const now = new Date('2026-11-01T00:00:00Z');
    const forward = Array.from({ length: 50 }, (_, n) => generatedBrand(3, n, now));
    const backward = Array.from({ length: 50 }, (_, i) => generatedBrand(3, 49 - i, now)).reverse();
    expect(backward).toEqual(forward);
    const other = Array.from({ length: 50 }, (_, n) => generatedBrand(4, n, now));
    expect(other.map((b) => b.stored.brand.name)).not.toEqual(forward.map((b) => b.stored.brand.name));
    // Unique domains under the reserved TLD, one ticker for one brand in twenty.
    const domains = new Set(forward.map((b) => b.stored.brand.domain));
    expect(domains.size).toBe(50);
    for (const domain of domains) expect(domain).toMatch(/^[a-z]+-[0-9a-z]+\.example$/);
    expect(forward.filter((b) => b.identifiers.some((ref) => ref.kind === 'ticker'))).toHaveLength(3);
  });
});
