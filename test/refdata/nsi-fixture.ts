/**
 * A small name-suggestion-index package written by the tests (the layout `npm pack name-suggestion-index` unpacks:
 * `package/dist/json/nsi.json` and `package/dist/wikidata/wikidata.min.json`), with one entry per drop reason, a brand
 * with country sites, a platform's own brand, a brand in several countries and an `operators/` entry that is no brand.
 * `version: 2` is the newer package: Burger Co changed, Mart Co gone, Tea Time new, Amazon Fresh as it was.
 */
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

type Item = { id: string; displayName: string; locationSet: { include: unknown[] }; matchNames?: string[]; tags: Record<string, string> };

const item = (id: string, displayName: string, qid: string | null, include: unknown[] = ['us'], extra: Partial<Item> = {}): Item => ({
  id,
  displayName,
  locationSet: { include },
  ...extra,
  tags: { brand: displayName, name: displayName, ...(qid === null ? {} : { 'brand:wikidata': qid }), ...(extra.tags ?? {}) },
});

function nsiJson(version: 1 | 2): unknown {
  const fastFood: Item[] = [
    item('burgerco-1a2b3c', 'Burger Co', 'Q1', ['001'], {
      matchNames: ['burger co restaurant', 'other chain'],
      tags: { 'name:ja': 'バーガーコー', ...(version === 2 ? { 'name:de': 'Burger Ko' } : {}) },
    }),
    item('burgerco-4d5e6f', 'Burger Co (France)', 'Q1', ['fr']),
    item('nowiki-111111', 'No Wiki', null),
    item('nosite-222222', 'No Site', 'Q2'),
    item('pizzasocial-333333', 'Pizza Social', 'Q3'),
    item('kidcrafts-444444', 'Kid Crafts', 'Q4'),
    item('linkbio-555555', 'Link Bio', 'Q5'),
    item('joesdiner-666666', "Joe's Diner", 'Q6'),
    item('badurl-777777', 'Bad Url', 'Q7'),
    item('gonechain-888888', 'Gone Chain', 'Q8'),
    item('amazonfresh-999999', 'Amazon Fresh', 'Q9'),
    ...(version === 2 ? [item('teatime-aaaaaa', 'Tea Time', 'Q12', ['gb'])] : []),
  ];
  const supermarkets: Item[] = version === 1 ? [item('martco-bbbbbb', 'Mart Co', 'Q10', ['de', 'at', 'us-ny', 'gb-lon.geojson', [8.5, 47.3, 50]])] : [];
  return {
    _meta: { version: version === 1 ? '8.0.20990101' : '8.0.20990201', generated: version === 1 ? '2099-01-01T10:00:00.000Z' : '2099-02-01T10:00:00.000Z' },
    nsi: {
      'brands/amenity/fast_food': { properties: { path: 'brands/amenity/fast_food' }, items: fastFood },
      'brands/shop/supermarket': { properties: { path: 'brands/shop/supermarket' }, items: supermarkets },
      'operators/amenity/post_box': { properties: { path: 'operators/amenity/post_box' }, items: [{ id: 'post-cccccc', displayName: 'Post', locationSet: { include: ['us'] }, tags: { operator: 'Post', 'operator:wikidata': 'Q11' } }] },
    },
  };
}

function wikidataJson(version: 1 | 2): unknown {
  return {
    _meta: { version: '8.0.20990101' },
    wikidata: {
      Q1: {
        label: 'Burger Co',
        identities: { website: 'https://www.burgerco.com/', facebook: 'burgerco' },
        officialWebsites: ['https://www.burgerco.com/', 'https://burgerco.de', 'https://www.burgerco.co.uk/en', 'https://burgerco.io', ...(version === 2 ? ['https://burgerco.fr'] : [])],
      },
      Q2: { label: 'No Site', officialWebsites: [] },
      Q3: { label: 'Pizza Social', officialWebsites: ['https://www.facebook.com/pizzasocial'] },
      Q4: { label: 'Kid Crafts', officialWebsites: ['https://www.etsy.com/shop/kidcrafts'] },
      Q5: { label: 'Link Bio', officialWebsites: ['https://linktr.ee/linkbio'] },
      Q6: { label: "Joe's Diner", officialWebsites: ['https://joesdiner.wixsite.com/home'] },
      Q7: { label: 'Bad Url', officialWebsites: ['http://bad url .com'] },
      Q8: { label: 'Gone Chain', officialWebsites: ['https://gonechain.com'], dissolutions: [{ date: '2020-01-01T00:00:00.000Z' }] },
      Q9: { label: 'Amazon Fresh', officialWebsites: ['https://www.amazon.com/fresh'] },
      Q10: { label: 'Mart Co', officialWebsites: ['https://martco.de', 'https://www.martco.com/', 'https://martco.at/'] },
      Q12: { label: 'Tea Time', officialWebsites: ['https://teatime.co.uk'] },
    },
  };
}

/** Writes the package (`version` 1, or the newer 2) under a new temp folder; returns the `package/` folder. */
export async function writeNsiPackage(version: 1 | 2 = 1, parent?: string): Promise<string> {
  const root = parent ?? (await mkdtemp(path.join(tmpdir(), 'brandbase-nsi-')));
  const dir = path.join(root, `v${version}`, 'package');
  await mkdir(path.join(dir, 'dist/json'), { recursive: true });
  await mkdir(path.join(dir, 'dist/wikidata'), { recursive: true });
  await writeFile(path.join(dir, 'dist/json/nsi.json'), JSON.stringify(nsiJson(version), null, 2));
  await writeFile(path.join(dir, 'dist/wikidata/wikidata.min.json'), JSON.stringify(wikidataJson(version)));
  await writeFile(path.join(dir, 'LICENSE.md'), '## BSD 3-Clause\n\nCopyright 2099, name-suggestion-index contributors\n');
  return dir;
}

/** The drops of package 1, one NSI item each (12 items of the brands/ tree: 3 kept, 9 dropped). */
export const DROPS_V1 = {
  duplicate: 1,
  'no-wikidata': 1,
  'no-website': 1,
  'social-profile': 1,
  'marketplace-or-app-store-page': 1,
  'link-page': 1,
  'generic-hosting': 1,
  'unparseable-url': 1,
  dissolved: 1,
};
