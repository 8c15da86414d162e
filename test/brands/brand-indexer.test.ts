/**
 * The rendition stage of BrandIndexer (ADR 0008): the crawl lists each logo's original; the indexer adds the
 * renditions before the one save, and a re-crawl that finds the same file keeps the previous renditions
 * instead of encoding them again. Real SQLite store, real asset store, real sharp; the crawl is the only
 * stand-in (it hands over the draft a crawl of the site would produce).
 */
import { Writable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BrandIndexer, type IndexerOptions } from '../../src/brands/brand-indexer.js';
import type { CrawlOutcome } from '../../src/crawl/crawl-brand.js';
import { emptyCompany, type Format, type Logo } from '../../src/domain/brand.js';
import { ingestImage } from '../../src/media/ingest-image.js';
import { withLogoRenditions } from '../../src/media/logo-renditions.js';
import { createLogger, silentLogger } from '../../src/platform/logger.js';
import { tempAssets, type TempAssets } from '../helpers/temp-assets.js';
import { tempSqlite, type TempDatabase } from '../store/temp-database.js';

const SVG = '<svg xmlns="http://www.w3.org/2000/svg" width="120" height="40"><rect x="4" y="4" width="112" height="32" rx="6" fill="#0a7"/></svg>';

let db: TempDatabase;
let assets: TempAssets;
beforeEach(async () => {
  db = await tempSqlite();
  await db.migrate();
  assets = tempAssets();
});
afterEach(async () => db.cleanup());

async function original(svg: string): Promise<Format> {
  const result = await ingestImage(Buffer.from(svg), assets);
  if (!result.ok) throw new Error(result.reason);
  return result.image.original;
}

function crawlListing(logos: Logo[]): () => Promise<CrawlOutcome> {
  return async () => ({
    ok: true,
    domain: 'acme.com',
    draft: {
      name: 'Acme', domain: 'acme.com', claimed: false, description: null, longDescription: null, links: [], logos, colors: [],
      fonts: [], images: [], qualityScore: 0.5, company: emptyCompany(), isNsfw: false,
    },
  });
}

/** The real rendition stage, recording which logos it was handed. */
function recordingStage(seen: Logo[][]): IndexerOptions['completeLogos'] {
  return (logos) => {
    seen.push(logos.map((l) => ({ ...l })));
    return withLogoRenditions(logos, assets);
  };
}

async function storedLogos(): Promise<Logo[]> {
  return (await db.stores.brands.findBrandByIdentifier({ kind: 'domain', value: 'acme.com' }))?.brand.logos ?? [];
}

describe('BrandIndexer rendition stage', () => {
  it('stores the record with PNG and WebP renditions next to the SVG original, in one save', async () => {
    const svg = await original(SVG);
    const logo: Logo = { theme: 'dark', formats: [svg], tags: [], type: 'logo' };
    const indexer = new BrandIndexer(db.stores.brands, crawlListing([logo]), silentLogger(), { completeLogos: recordingStage([]) });
    const outcome = await indexer.index('acme.com');
    expect(outcome.ok && outcome.stored.brand.logos[0]?.formats.map((f) => f.format)).toEqual(['svg', 'png', 'webp']);
    const [stored] = await storedLogos();
    expect(stored?.formats.map((f) => [f.format, f.width, f.height])).toEqual([['svg', 120, 40], ['png', 512, 171], ['webp', 512, 171]]);
    for (const format of stored?.formats ?? []) {
      expect((await assets.get(format.src.split('/').pop() ?? ''))?.bytes.length).toBe(format.size);
    }
  });

  it('a re-crawl that lists the same file keeps its renditions without encoding them again', async () => {
    const svg = await original(SVG);
    const seen: Logo[][] = [];
    const logo: Logo = { theme: 'dark', formats: [svg], tags: [], type: 'logo' };
    const indexer = new BrandIndexer(db.stores.brands, crawlListing([logo]), silentLogger(), { completeLogos: recordingStage(seen) });
    await indexer.index('acme.com');
    const first = await storedLogos();
    const filesAfterFirst = (await assets.files()).length;
    await indexer.index('acme.com', { retry: true });
    expect(seen[1]?.map((l) => l.formats.length)).toEqual([3]);
    expect(await storedLogos()).toEqual(first);
    expect((await assets.files()).length).toBe(filesAfterFirst);
  });

  it('a failing rendition stage still stores the originals and logs the failure', async () => {
    const svg = await original(SVG);
    const lines: string[] = [];
    const logger = createLogger({ destination: new Writable({ write: (chunk: Buffer, _enc, done) => void (lines.push(chunk.toString()), done()) }) });
    const indexer = new BrandIndexer(db.stores.brands, crawlListing([{ theme: 'dark', formats: [svg], tags: [], type: 'logo' }]), logger, {
      completeLogos: () => Promise.reject(new Error('encoder crashed')),
    });
    const outcome = await indexer.index('acme.com');
    expect(outcome.ok).toBe(true);
    expect((await storedLogos())[0]?.formats).toEqual([svg]);
    expect(lines.join('')).toContain('logo renditions failed');
  });
});

describe('failure memory and back-off (in the store, ADR 0016)', () => {
  const memory = { baseMs: 60_000, maxMs: 6 * 3_600_000 };
  let clock = 0;
  const now = () => new Date(clock);
  const seconds = (n: number) => (clock += n * 1000);
  beforeEach(() => {
    clock = new Date('2030-01-01T00:00:00Z').getTime();
  });

  /** A crawl that fails with `reason` until `up` is set; counts its calls. */
  function site(reason: 'timeout' | 'unreachable' = 'timeout') {
    const state = { up: false, crawls: 0 };
    const crawl = async (): Promise<CrawlOutcome> => {
      state.crawls++;
      return state.up ? crawlListing([])() : { ok: false, reason, message: `the homepage of acme.com failed: ${reason}` };
    };
    return { state, crawl };
  }

  it('remembers a failed crawl for the configured window, doubles it for each failure in a row, and forgets it after a success', async () => {
    const { state, crawl } = site();
    const indexer = new BrandIndexer(db.stores.brands, crawl, silentLogger(), { now, failureMemory: memory });

    expect(await indexer.index('acme.com')).toMatchObject({ ok: false, reason: 'timeout' });
    seconds(59);
    expect(await indexer.recentFailure('acme.com')).toMatchObject({ ok: false, reason: 'timeout' });
    expect(await indexer.index('acme.com')).toMatchObject({ ok: false, reason: 'timeout' });
    expect(state.crawls).toBe(1); // answered from memory, with the same reason
    seconds(2); // 61 s: the first window (60 s) is over
    expect(await indexer.recentFailure('acme.com')).toBeNull();
    await indexer.index('acme.com');
    expect(state.crawls).toBe(2);
    expect((await db.stores.brands.getCrawlFailure('acme.com'))?.strikes).toBe(2);
    seconds(119); // the second failure in a row is remembered 120 s
    await indexer.index('acme.com');
    expect(state.crawls).toBe(2);
    seconds(2);
    state.up = true;
    expect((await indexer.index('acme.com')).ok).toBe(true);
    expect(state.crawls).toBe(3);
    expect(await db.stores.brands.getCrawlFailure('acme.com')).toBeNull();
    state.up = false;
    await indexer.index('acme.com', { retry: true });
    seconds(61); // after a success the count starts again: 60 s
    expect(await indexer.recentFailure('acme.com')).toBeNull();
  });

  it('caps the doubling at the maximum', async () => {
    const { crawl } = site();
    const indexer = new BrandIndexer(db.stores.brands, crawl, silentLogger(), { now, failureMemory: { baseMs: 60_000, maxMs: 90_000 } });
    await indexer.index('acme.com');
    seconds(61);
    await indexer.index('acme.com'); // second strike: 120 s, capped at 90 s
    seconds(89);
    expect(await indexer.recentFailure('acme.com')).not.toBeNull();
    seconds(2);
    expect(await indexer.recentFailure('acme.com')).toBeNull();
  });

  it('is shared: another indexer on the same store answers from it, and a retry (a job, brandbase crawl) ignores it and clears it on success', async () => {
    const first = site('unreachable');
    await new BrandIndexer(db.stores.brands, first.crawl, silentLogger(), { now, failureMemory: memory }).index('acme.com');
    const second = site('unreachable');
    const other = new BrandIndexer(db.stores.brands, second.crawl, silentLogger(), { now, failureMemory: memory });
    expect(await other.index('acme.com')).toMatchObject({ ok: false, reason: 'unreachable' });
    expect(second.state.crawls).toBe(0);
    second.state.up = true;
    expect((await other.index('acme.com', { retry: true })).ok).toBe(true);
    expect(second.state.crawls).toBe(1);
    expect(await db.stores.brands.getCrawlFailure('acme.com')).toBeNull();
  });

  it('a memory of 0 never answers from memory', async () => {
    const { state, crawl } = site();
    const indexer = new BrandIndexer(db.stores.brands, crawl, silentLogger(), { now, failureMemory: { baseMs: 0, maxMs: 0 } });
    await indexer.index('acme.com');
    await indexer.index('acme.com');
    expect(state.crawls).toBe(2);
  });

  it('prunes failures older than the cap after recording one', async () => {
    const { crawl } = site();
    await db.stores.brands.recordCrawlFailure({ domain: 'ancient.com', reason: 'timeout', message: 'old', failedAt: new Date(clock - memory.maxMs - 1) });
    await new BrandIndexer(db.stores.brands, crawl, silentLogger(), { now, failureMemory: memory }).index('acme.com');
    expect(await db.stores.brands.getCrawlFailure('ancient.com')).toBeNull();
    expect(await db.stores.brands.getCrawlFailure('acme.com')).not.toBeNull();
  });

  it('a crawler that throws (a bug) logs its stack once and answers crawl_error', async () => {
    const lines: string[] = [];
    const logger = createLogger({ destination: new Writable({ write: (chunk: Buffer, _enc, done) => void (lines.push(chunk.toString()), done()) }) });
    const indexer = new BrandIndexer(db.stores.brands, () => Promise.reject(new Error('extractor bug')), logger, { now });
    expect(await indexer.index('acme.com')).toMatchObject({ ok: false, reason: 'crawl_error' });
    const crashed = lines.filter((l) => l.includes('crawl crashed'));
    expect(crashed).toHaveLength(1);
    expect(crashed[0]).toContain('extractor bug');
    expect(crashed[0]).toContain('"stack"');
  });
});
