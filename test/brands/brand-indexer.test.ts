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
  await db.store.migrate();
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
  return (await db.store.findBrandByIdentifier({ kind: 'domain', value: 'acme.com' }))?.brand.logos ?? [];
}

describe('BrandIndexer rendition stage', () => {
  it('stores the record with PNG and WebP renditions next to the SVG original, in one save', async () => {
    const svg = await original(SVG);
    const logo: Logo = { theme: 'dark', formats: [svg], tags: [], type: 'logo' };
    const indexer = new BrandIndexer(db.store, crawlListing([logo]), silentLogger(), { completeLogos: recordingStage([]) });
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
    const indexer = new BrandIndexer(db.store, crawlListing([logo]), silentLogger(), { completeLogos: recordingStage(seen) });
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
    const indexer = new BrandIndexer(db.store, crawlListing([{ theme: 'dark', formats: [svg], tags: [], type: 'logo' }]), logger, {
      completeLogos: () => Promise.reject(new Error('encoder crashed')),
    });
    const outcome = await indexer.index('acme.com');
    expect(outcome.ok).toBe(true);
    expect((await storedLogos())[0]?.formats).toEqual([svg]);
    expect(lines.join('')).toContain('logo renditions failed');
  });
});

describe('failure memory and back-off', () => {
  it('remembers a failed crawl, doubles the memory for each failure in a row, and forgets it after a success', async () => {
    let clock = new Date('2030-01-01T00:00:00Z').getTime();
    let crawls = 0;
    let siteUp = false;
    const crawl = async (): Promise<CrawlOutcome> => {
      crawls++;
      return siteUp ? crawlListing([])() : { ok: false, reason: 'timeout', message: 'the homepage did not load' };
    };
    const indexer = new BrandIndexer(db.store, crawl, silentLogger(), { now: () => new Date(clock) });
    const minutes = (n: number) => (clock += n * 60_000);

    expect((await indexer.index('acme.com')).ok).toBe(false);
    minutes(9);
    expect(indexer.recentFailure('acme.com')).not.toBeNull();
    await indexer.index('acme.com');
    expect(crawls).toBe(1); // answered from memory
    minutes(2); // 11 minutes: the first memory (10) is over
    await indexer.index('acme.com');
    expect(crawls).toBe(2);
    minutes(15); // the second failure in a row is remembered 20 minutes
    await indexer.index('acme.com');
    expect(crawls).toBe(2);
    minutes(6);
    siteUp = true;
    expect((await indexer.index('acme.com')).ok).toBe(true);
    expect(crawls).toBe(3);
    expect(indexer.recentFailure('acme.com')).toBeNull();
    siteUp = false;
    await indexer.index('acme.com');
    minutes(11); // after a success the count starts again: 10 minutes
    expect(indexer.recentFailure('acme.com')).toBeNull();
  });
});
