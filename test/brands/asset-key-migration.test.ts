/**
 * 0004_asset_keys on a database that holds records written before it: every asset URL (`<anything>/assets/<key>`)
 * becomes its key, page by page; anything else in the record is left as it was, and running it again changes
 * nothing.
 */
import type { Kysely } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import type { Brand } from '../../src/domain/brand.js';
import { brandIdForDomain, brandUrn } from '../../src/domain/ids.js';
import { convertAssetUrlsToKeys, recordWithAssetKeys } from '../../src/brands/store/asset-key-migration.js';
import { migrateToLatest } from '../../src/db/migrations.js';
import { PRODUCT_MIGRATIONS } from '../../src/main/product-stores.js';
import type { Database } from '../helpers/all-tables.js';
import { sampleBrand } from '../store/sample-brand.js';
import { PG_URL, tempPostgres, tempSqlite, type TempDatabase } from '../store/temp-database.js';
import { always, needsPostgres, type Gated } from '../helpers/optional.js';

const key = (c: string, ext: string) => `${c.repeat(64)}.${ext}`;

async function migrateBefore0004(temp: TempDatabase): Promise<void> {
  const earlier = PRODUCT_MIGRATIONS.map((product) => Object.fromEntries(Object.entries(product).filter(([name]) => name < '0004_asset_keys')));
  await migrateToLatest(temp.database, earlier);
}

/** A record as written before 0004: asset URLs under whatever public URL the crawling process had. */
function oldRecord(domain: string, base: string): Brand {
  const id = brandIdForDomain(domain);
  const brand = sampleBrand(domain, { id, urn: brandUrn(id) });
  return {
    ...brand,
    logos: [
      { ...brand.logos[0]!, formats: [{ ...brand.logos[0]!.formats[0]!, src: `${base}/assets/${key('a', 'svg')}` }, { ...brand.logos[0]!.formats[1]!, src: `${base}/assets/${key('b', 'png')}` }] },
      // Not an asset URL: left alone.
      brand.logos[1]!,
    ],
    images: [{ ...brand.images[0]!, formats: [{ ...brand.images[0]!.formats[0]!, src: `${base}/assets/${key('c', 'jpeg')}` }] }],
  };
}

async function insertRaw(db: Kysely<Database>, brand: Brand, updatedAt = 5000): Promise<void> {
  await db
    .insertInto('brands')
    .values({ id: brand.id, domain: brand.domain, status: 'indexed', record: JSON.stringify(brand), crawled_at: 1000, created_at: 2000, updated_at: updatedAt })
    .execute();
}

async function recordOf(db: Kysely<Database>, id: string): Promise<{ record: string; updated_at: number }> {
  const row = await db.selectFrom('brands').select(['record', 'updated_at']).where('id', '=', id).executeTakeFirstOrThrow();
  return { record: row.record, updated_at: Number(row.updated_at) };
}

// The PostgreSQL case is always collected (skipped without a server) so the end-of-run report counts it.
const cases: { name: string; open: () => Promise<TempDatabase>; gate: Gated }[] = [
  { name: 'SQLite', open: tempSqlite, gate: always },
  { name: 'PostgreSQL', open: () => tempPostgres(PG_URL ?? ''), gate: needsPostgres },
];

for (const { name, open, gate } of cases) gate.describe(`migration 0004_asset_keys on ${name}`, () => {
  let temp: TempDatabase | undefined;
  afterEach(async () => {
    await temp?.cleanup();
    temp = undefined;
  });

  it('turns every asset URL of every record into its key and keeps the rest of the record', async () => {
    temp = await open();
    await migrateBefore0004(temp);
    const local = oldRecord('acme.com', 'http://localhost:8787');
    const proxied = oldRecord('globex.com', 'https://brands.example.com/api');
    const bare = sampleBrand('initech.com', { logos: [], images: [] });
    for (const brand of [local, proxied, bare]) await insertRaw(temp.db, brand);
    const bareBefore = await recordOf(temp.db, bare.id);

    await temp.migrate();

    for (const brand of [local, proxied]) {
      const held = await temp.stores.brands.getBrand(brand.id);
      expect(held?.brand.logos[0]?.formats.map((f) => f.src)).toEqual([key('a', 'svg'), key('b', 'png')]);
      expect(held?.brand.images[0]?.formats.map((f) => f.src)).toEqual([key('c', 'jpeg')]);
      // The non-asset src is untouched, and nothing else changed: the record is the old one with keys.
      expect(held?.brand.logos[1]).toEqual(brand.logos[1]);
      const expected = JSON.parse(JSON.stringify(brand)) as Brand;
      expected.logos[0]!.formats[0]!.src = key('a', 'svg');
      expected.logos[0]!.formats[1]!.src = key('b', 'png');
      expected.images[0]!.formats[0]!.src = key('c', 'jpeg');
      expect(held?.brand).toEqual(expected);
      // A change of representation, not of content: the record's times stay.
      expect((await recordOf(temp.db, brand.id)).updated_at).toBe(5000);
    }
    expect(await recordOf(temp.db, bare.id)).toEqual(bareBefore);

    // Applied once: migrating again is a no-op, and running the conversion again rewrites nothing.
    await temp.migrate();
    expect(await convertAssetUrlsToKeys(temp.db)).toBe(0);
  });

  it('reads the table in pages: every row is converted whatever the page size', async () => {
    temp = await open();
    await migrateBefore0004(temp);
    const brands = Array.from({ length: 7 }, (_, i) => oldRecord(`brand-${i}.test`, `http://host-${i}.test:8787`));
    for (const brand of brands) await insertRaw(temp.db, brand);
    await insertRaw(temp.db, sampleBrand('no-assets.test', { logos: [], images: [] }));

    expect(await convertAssetUrlsToKeys(temp.db, 2)).toBe(7);
    for (const brand of brands) {
      const record = JSON.parse((await recordOf(temp.db, brand.id)).record) as Brand;
      expect(record.logos[0]?.formats[0]?.src).toBe(key('a', 'svg'));
      expect(record.images[0]?.formats[0]?.src).toBe(key('c', 'jpeg'));
    }
    expect(await convertAssetUrlsToKeys(temp.db, 2)).toBe(0);
    expect(await convertAssetUrlsToKeys(temp.db, 8)).toBe(0);
  });
});

describe('recordWithAssetKeys', () => {
  it('converts only `<anything>/assets/<key>` srcs of logos and images; null when nothing changes', () => {
    const record = JSON.stringify({
      logos: [{ formats: [{ src: `https://x.test/assets/${key('a', 'webp')}` }, { src: `https://x.test/img/${key('b', 'png')}` }, { src: key('c', 'svg') }] }],
      images: [{ formats: [{ src: `https://x.test/assets/${key('d', 'gif')}` }, { src: `https://x.test/assets/${key('e', 'jpeg')}` }] }],
      links: [{ name: 'github', url: `https://x.test/assets/${key('f', 'png')}` }],
    });
    expect(JSON.parse(recordWithAssetKeys(record) ?? 'null')).toEqual({
      logos: [{ formats: [{ src: key('a', 'webp') }, { src: `https://x.test/img/${key('b', 'png')}` }, { src: key('c', 'svg') }] }],
      images: [{ formats: [{ src: `https://x.test/assets/${key('d', 'gif')}` }, { src: key('e', 'jpeg') }] }],
      links: [{ name: 'github', url: `https://x.test/assets/${key('f', 'png')}` }],
    });
    expect(recordWithAssetKeys(JSON.stringify({ logos: [{ formats: [{ src: key('a', 'png') }] }], images: [] }))).toBeNull();
    expect(recordWithAssetKeys('not json')).toBeNull();
    expect(recordWithAssetKeys(JSON.stringify({ logos: 'odd', images: [null, { formats: [7] }] }))).toBeNull();
  });
});
