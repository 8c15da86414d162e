/**
 * Optional real material (`npm run eval -- --real ../shared/corpus`): the iana.org WARC recording replayed
 * as a site, labelled by hand from the recording itself: the homepage shows IANA's logo as a CSS background
 * of the header <h1> (`iana-logo-homepage.png`), declares `bookmark_icon.ico` as its icon, and shows ICANN's
 * logo (`icann-logo.svg`, `id="icann-logo"`) in the footer, which must never be chosen.
 * Nothing from the corpus is copied into the repository; this only runs when the folder is given.
 */
import { access } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { largestIcoEntry } from '../../src/media/largest-ico-entry.js';
import { evalBrand } from './brand-assets.js';
import type { EvalSite } from './eval-sites.js';
import { readWarcSites } from './warc-replay.js';

export async function realSites(corpus: string): Promise<EvalSite[]> {
  const warc = path.join(corpus, 'warc', 'iana.warc.gz');
  if (!(await exists(warc))) return [];
  const sites = await readWarcSites(warc);
  const files = sites['www.iana.org'] ?? {};
  const file = (p: string): Buffer => Buffer.from(files[p]?.body ?? '');
  const ico = largestIcoEntry(file('/_img/bookmark_icon.ico'), 40_000_000);
  const icon = ico.kind === 'png' ? ico.png : await sharp(ico.raster.data, { raw: { width: ico.raster.width, height: ico.raster.height, channels: 4 } }).png().toBuffer();
  return [{
    host: 'www.iana.org',
    scenario: 'real: iana.org WARC (2014)',
    brand: { ...evalBrand('linear'), slug: 'iana', name: 'IANA' },
    files,
    registry: {
      logo: file('/_img/2013.1/iana-logo-homepage.png'),
      'logo-header': file('/_img/2013.1/iana-logo-header.svg').toString('utf8'),
      icann: file('/_img/2013.1/icann-logo.svg').toString('utf8'),
      'favicon-ico': icon,
    },
    label: { primary: 'logo', primaryType: 'logo', icon: ['favicon-ico'], thirdParty: ['icann'], allowedTags: [] },
  }];
}

async function exists(file: string): Promise<boolean> {
  try {
    await access(file);
    return true;
  } catch {
    return false;
  }
}
