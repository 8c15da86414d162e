/**
 * Realistic synthetic brand records for `brandbase generate-brands` (load tests, benches, demos). Brand number `n`
 * of seed `s` is a pure function of (s, n): a run is reproducible whatever its batch size, and a run can be resumed
 * or extended with `--from`. Every record is valid as the HTTP answers serialize it: names, descriptions, logos and
 * images with asset keys (`<sha256>.<ext>`, no file behind them: the asset route answers 404), colours, fonts,
 * social links, company facts with taxonomy industries, and a ticker for one brand in twenty.
 *
 * Domains are under the reserved `.example` TLD (RFC 2606): never a real site, never crawlable, and unique per
 * number (`<name>-<n in base 36>.example`). Tickers are `ZX` + four letters from the number, six characters that
 * no exchange lists, so a generated brand never answers for a real ticker.
 */
import { createHash } from 'node:crypto';
import { sortIndustries, subIndustries, withParent } from '../crawl/fields/industries/taxonomy.js';
import type { Brand, Color, Font, Link, Logo } from '../domain/brand.js';
import { brandIdForDomain, brandUrn } from '../domain/ids.js';
import { qualityScore } from '../domain/quality-score.js';
import type { IdentifierRef, StoredBrand } from '../brands/brand-admin.js';
import { seededRandom } from '../platform/seeded-random.js';

export interface GeneratedBrand {
  stored: StoredBrand;
  identifiers: IdentifierRef[];
}

/** One 32-bit state per (seed, number), so brand n does not depend on the brands before it. */
function brandRandom(seed: number, n: number): () => number {
  const mixed = Math.imul(seed ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(n + 1, 0xc2b2ae35);
  return seededRandom(mixed);
}

const ONSETS = ['b', 'br', 'c', 'cl', 'd', 'dr', 'f', 'fl', 'g', 'gr', 'h', 'k', 'l', 'm', 'n', 'p', 'pr', 'qu', 'r', 's', 'st', 't', 'tr', 'v', 'w', 'z'];
const VOWELS = ['a', 'e', 'i', 'o', 'u', 'ai', 'ea', 'io', 'ou'];
const CODAS = ['', '', 'n', 'r', 'l', 'x', 's', 'm', 'nt', 'rk'];
const SUFFIXES = ['', '', '', 'Labs', 'Systems', 'Foods', 'Studio', 'Health', 'Capital', 'Outdoors', 'Works', 'Analytics', 'Bank', 'Motors', 'Games'];
const PRODUCTS = ['software for small teams', 'organic snacks', 'electric bicycles', 'payment infrastructure', 'running shoes', 'home insurance', 'cloud storage', 'craft coffee', 'project management tools', 'solar panels', 'online courses', 'pet food', 'design tools', 'used cars', 'travel bookings'];
const AUDIENCES = ['families', 'developers', 'retailers', 'hospitals', 'students', 'restaurants', 'farmers', 'creators', 'banks', 'city councils'];
const FONTS: readonly [string, Font['origin']][] = [
  ['Inter', 'google'],
  ['Roboto', 'google'],
  ['Poppins', 'google'],
  ['Lato', 'google'],
  ['Montserrat', 'google'],
  ['Helvetica Neue', 'system'],
  ['Georgia', 'system'],
];
const COUNTRIES: readonly [string, string, string, string][] = [
  ['US', 'United States', 'Americas', 'Northern America'],
  ['GB', 'United Kingdom', 'Europe', 'Northern Europe'],
  ['DE', 'Germany', 'Europe', 'Western Europe'],
  ['FR', 'France', 'Europe', 'Western Europe'],
  ['JP', 'Japan', 'Asia', 'Eastern Asia'],
  ['BR', 'Brazil', 'Americas', 'South America'],
  ['IN', 'India', 'Asia', 'Southern Asia'],
  ['AU', 'Australia', 'Oceania', 'Australia and New Zealand'],
];
const CITIES = ['Springfield', 'Riverton', 'Lakeside', 'Hillview', 'Portsmouth', 'Northgate', 'Fairhaven', 'Easton'];
const KINDS = ['PRIVATELY_HELD', 'PRIVATELY_HELD', 'PUBLIC_COMPANY', 'PARTNERSHIP', 'SELF_OWNED', 'NON_PROFIT'] as const;
/** Sub-industries of the shipped taxonomy (never an NSFW one): the records carry real industry ids. */
const INDUSTRY_IDS: readonly string[] = subIndustries()
  .filter((e) => !e.nsfw)
  .map((e) => e.id);

type Pick = <T>(items: readonly T[]) => T;

function picker(rand: () => number): Pick {
  return <T>(items: readonly T[]): T => items[Math.floor(rand() * items.length)] as T;
}

function brandName(pick: Pick, rand: () => number): string {
  let word = '';
  const syllables = 2 + Math.floor(rand() * 2);
  for (let i = 0; i < syllables; i++) word += pick(ONSETS) + pick(VOWELS) + (i === syllables - 1 ? pick(CODAS) : '');
  const suffix = pick(SUFFIXES);
  const capital = word.charAt(0).toUpperCase() + word.slice(1);
  return suffix ? `${capital} ${suffix}` : capital;
}

/** A deterministic asset key: what the asset store would hold for this brand's file. */
function assetKey(domain: string, file: string, ext: 'svg' | 'png' | 'webp' | 'jpeg'): string {
  return `${createHash('sha256').update(`${domain}/${file}`).digest('hex')}.${ext}`;
}

function hex(rand: () => number): string {
  return `#${Math.floor(rand() * 0xffffff)
    .toString(16)
    .padStart(6, '0')}`;
}

function brightness(color: string): number {
  const v = Number.parseInt(color.slice(1), 16);
  return Math.round(0.299 * (v >> 16) + 0.587 * ((v >> 8) & 0xff) + 0.114 * (v & 0xff));
}

function colors(rand: () => number): Color[] {
  const accent = hex(rand);
  return [
    { hex: accent, type: 'accent', brightness: brightness(accent) },
    { hex: '#111318', type: 'dark', brightness: brightness('#111318') },
    { hex: '#f7f7f8', type: 'light', brightness: brightness('#f7f7f8') },
  ];
}

function logos(domain: string, rand: () => number): Logo[] {
  const width = 200 + Math.floor(rand() * 400);
  return [
    {
      theme: 'light',
      type: 'logo',
      tags: [],
      formats: [
        { src: assetKey(domain, 'logo', 'svg'), format: 'svg', height: null, width: null, size: 1500 + Math.floor(rand() * 6000), background: 'transparent' },
        { src: assetKey(domain, 'logo', 'png'), format: 'png', height: 128, width, size: 8000 + Math.floor(rand() * 20_000), background: 'transparent' },
      ],
    },
    { theme: null, type: 'icon', tags: [], formats: [{ src: assetKey(domain, 'icon', 'png'), format: 'png', height: 256, width: 256, size: 4000 + Math.floor(rand() * 9000), background: null }] },
  ];
}

function links(slug: string, rand: () => number): Link[] {
  const all: Link[] = [
    { name: 'twitter', url: `https://twitter.com/${slug}` },
    { name: 'linkedin', url: `https://www.linkedin.com/company/${slug}` },
    { name: 'instagram', url: `https://www.instagram.com/${slug}` },
    { name: 'github', url: `https://github.com/${slug}` },
  ];
  return all.slice(0, 1 + Math.floor(rand() * all.length));
}

function tickerFor(n: number): string {
  let code = '';
  let rest = Math.floor(n / 20);
  for (let i = 0; i < 4; i++) {
    code = String.fromCharCode(65 + (rest % 26)) + code;
    rest = Math.floor(rest / 26);
  }
  return `ZX${code}`;
}

/** Brand number `n` of `seed`, crawled (as if) within the 20 days before `now`. */
export function generatedBrand(seed: number, n: number, now: Date): GeneratedBrand {
  const rand = brandRandom(seed, n);
  const pick = picker(rand);
  const name = brandName(pick, rand);
  const slug = name.toLowerCase().replace(/[^a-z0-9]+/g, '');
  const domain = `${slug}-${n.toString(36)}.example`;
  const id = brandIdForDomain(domain);
  const listed = n % 20 === 0;
  const ticker = tickerFor(n);
  const [countryCode, country, region, subregion] = pick(COUNTRIES);
  const [font, origin] = pick(FONTS);
  const product = pick(PRODUCTS);
  const crawledAt = new Date(now.getTime() - Math.floor(rand() * 20 * 86_400_000));
  const brand: Brand = {
    id,
    name,
    domain,
    claimed: rand() < 0.02,
    description: `${name} makes ${product} for ${pick(AUDIENCES)}.`,
    longDescription: `${name} was founded to make ${product} simple. Today it serves customers in ${country} and beyond, with a small team that answers every email.`,
    links: links(slug, rand),
    logos: logos(domain, rand),
    colors: colors(rand),
    fonts: [{ name: font, type: 'title', origin, originId: origin === 'google' ? font.toLowerCase().replace(/ /g, '-') : null, weights: [{ weight: 700, style: 'normal' }] }],
    images: [{ type: 'banner', tags: [], formats: [{ src: assetKey(domain, 'banner', 'jpeg'), format: 'jpeg', height: 630, width: 1200, size: 60_000 + Math.floor(rand() * 90_000), background: null }] }],
    qualityScore: 0,
    company: {
      employees: [2, 11, 51, 201, 1001, 5001][Math.floor(rand() * 6)] ?? null,
      financialIdentifiers: listed ? { isin: [], ticker: [ticker] } : null,
      foundedYear: 1950 + Math.floor(rand() * 75),
      industries: sortIndustries(withParent(pick(INDUSTRY_IDS), Math.round((0.5 + rand() * 0.4) * 100) / 100)),
      kind: listed ? 'PUBLIC_COMPANY' : pick(KINDS),
      location: { city: pick(CITIES), country, countryCode, region, state: null, subregion },
    },
    isNsfw: false,
    urn: brandUrn(id),
  };
  brand.qualityScore = qualityScore({ ...brand, crawledAt, now, domain });
  const identifiers: IdentifierRef[] = [{ kind: 'domain', value: domain }];
  if (listed) identifiers.push({ kind: 'ticker', value: ticker });
  return { stored: { brand, status: 'indexed', crawledAt, createdAt: crawledAt, updatedAt: crawledAt }, identifiers };
}
