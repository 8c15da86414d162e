/**
 * JSON-LD reading shared by identity, company, links and logos. Real pages ship broken JSON-LD (CDATA
 * wrappers, HTML/JS comments, raw control characters, trailing commas, stray closing braces), so each block is
 * pre-cleaned and parsed leniently; `@graph` arrays are flattened and nested typed nodes (e.g.
 * WebSite.publisher) are collected too, so a lookup by type sees every node.
 */
import type { CheerioAPI } from 'cheerio';
import { elementIndex } from './element-index.js';
import { attrEquals, textOf } from './element-queries.js';

export type JsonLdNode = Record<string, unknown>;

/** JSON-LD larger than this is not brand metadata worth the parse. */
const MAX_BLOCK_CHARS = 256 * 1024;
const MAX_NODES = 200;

const JSON_LD_TYPE = attrEquals('type', 'application/ld+json', true);

export function readJsonLd($: CheerioAPI): JsonLdNode[] {
  const nodes: JsonLdNode[] = [];
  // `script[type="application/ld+json" i]`
  for (const el of elementIndex($).byTag('script').filter(JSON_LD_TYPE)) {
    const text = textOf(el);
    if (text.length > MAX_BLOCK_CHARS) continue;
    const data = parseLenientJson(text);
    if (data !== undefined) collectNodes(data, nodes, 0);
  }
  return nodes.slice(0, MAX_NODES);
}

/** Parses JSON that may carry the usual hand-written damage; undefined when nothing can be recovered. */
export function parseLenientJson(text: string): unknown {
  const cleaned = preClean(text);
  let end = cleaned.length;
  // Stray trailing characters (an extra `}` or `;`) are common: retry a few times, each time ending the text
  // at the previous closing bracket. Bounded so hostile input cannot make this quadratic.
  for (let attempt = 0; attempt < 4 && end > 0; attempt += 1) {
    try {
      return JSON.parse(cleaned.slice(0, end)) as unknown;
    } catch {
      end = Math.max(cleaned.lastIndexOf('}', end - 2), cleaned.lastIndexOf(']', end - 2)) + 1;
    }
  }
  return undefined;
}

function preClean(text: string): string {
  let s = text.trim();
  s = s.replace(/^<!\[CDATA\[|\]\]>$/g, '').replace(/^\s*<!--|-->\s*$/g, '');
  s = s.replace(/^\s*\/\/\s*<!\[CDATA\[|\/\/\s*\]\]>\s*$/g, '');
  s = stripCommentsAndControls(s);
  return s.replace(/,\s*([}\]])/g, '$1').trim();
}

/**
 * Removes JS comments outside strings and escapes raw control characters inside strings (a literal newline in
 * a description is the most common breakage). A tiny scanner, because regexes cannot tell `//` in a URL string
 * from a comment.
 */
function stripCommentsAndControls(s: string): string {
  let out = '';
  let inString = false;
  for (let i = 0; i < s.length; i += 1) {
    const ch = s[i] ?? '';
    if (inString) {
      if (ch === '\\') {
        out += ch + (s[i + 1] ?? '');
        i += 1;
      } else if (ch === '"') {
        inString = false;
        out += ch;
      } else out += ch < ' ' ? ' ' : ch;
      continue;
    }
    if (ch === '"') inString = true;
    if (ch === '/' && s[i + 1] === '/') {
      const eol = s.indexOf('\n', i);
      i = eol === -1 ? s.length : eol - 1;
      continue;
    }
    if (ch === '/' && s[i + 1] === '*') {
      const close = s.indexOf('*/', i + 2);
      i = close === -1 ? s.length : close + 1;
      continue;
    }
    out += ch;
  }
  return out;
}

function collectNodes(data: unknown, out: JsonLdNode[], depth: number): void {
  if (depth > 6 || out.length >= MAX_NODES) return;
  if (Array.isArray(data)) {
    for (const item of data) collectNodes(item, out, depth + 1);
    return;
  }
  if (!isNode(data)) return;
  if ('@type' in data) out.push(data);
  for (const [key, value] of Object.entries(data)) {
    if (key === '@graph' || (typeof value === 'object' && value !== null)) collectNodes(value, out, depth + 1);
  }
}

function isNode(value: unknown): value is JsonLdNode {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The node's types, without a schema.org prefix. */
export function nodeTypes(node: JsonLdNode): string[] {
  const t = node['@type'];
  const list = Array.isArray(t) ? t : [t];
  return list.filter((x): x is string => typeof x === 'string').map((x) => x.replace(/^https?:\/\/schema\.org\//, ''));
}

/** schema.org types that describe the organization behind a site. */
const ORGANIZATION_TYPES = new Set([
  'Organization', 'Corporation', 'LocalBusiness', 'NGO', 'EducationalOrganization', 'CollegeOrUniversity',
  'School', 'HighSchool', 'ElementarySchool', 'MiddleSchool', 'Preschool', 'GovernmentOrganization',
  'NewsMediaOrganization', 'OnlineBusiness', 'OnlineStore', 'Store', 'SportsOrganization', 'MedicalOrganization',
  'NonprofitOrganization', 'Airline', 'Consortium', 'FundingScheme', 'LibrarySystem', 'PerformingGroup',
  'ResearchOrganization', 'WorkersUnion', 'Brand', 'Project', 'ResearchProject', 'FundingAgency',
  // LocalBusiness subtypes that name an industry (industries/industry-rules.ts).
  'Restaurant', 'CafeOrCoffeeShop', 'FastFoodRestaurant', 'Bakery', 'BarOrPub', 'Brewery', 'Winery', 'Hotel', 'Motel',
  'Resort', 'Hostel', 'BedAndBreakfast', 'LodgingBusiness', 'TravelAgency', 'BankOrCreditUnion', 'InsuranceAgency',
  'AccountingService', 'Hospital', 'MedicalClinic', 'Dentist', 'Physician', 'LegalService', 'Attorney', 'AutoDealer',
  'AutoRepair', 'RealEstateAgent', 'ClothingStore', 'ShoeStore', 'JewelryStore', 'FurnitureStore',
  'HealthAndBeautyBusiness', 'ExerciseGym', 'SportingGoodsStore', 'GroceryStore', 'EmploymentAgency',
  'GeneralContractor', 'HomeAndConstructionBusiness', 'FinancialService', 'ProfessionalService',
]);

/**
 * The node that best describes the site's own organization: an organization-typed node, preferring one whose
 * url/name matches the domain label and one with more properties (the main node, not a stub reference).
 */
export function findOrganization(nodes: JsonLdNode[], label: string): JsonLdNode | null {
  const key = label.replace(/[^a-z0-9]/g, '');
  const score = (n: JsonLdNode): number => {
    const id = `${stringValue(n['url']) ?? ''} ${stringValue(n['name']) ?? ''}`.toLowerCase().replace(/[^a-z0-9]/g, '');
    return (label && id.includes(key) ? 100 : 0) + Object.keys(n).length;
  };
  // The first of the highest score, as a stable sort by descending score would give, scoring each node once.
  let best: JsonLdNode | null = null;
  let bestScore = -Infinity;
  for (const n of nodes) {
    if (!nodeTypes(n).some((t) => ORGANIZATION_TYPES.has(t))) continue;
    const s = score(n);
    if (s > bestScore) [best, bestScore] = [n, s];
  }
  return best;
}

/** A string value, or the first string of an array, or an object's `name`/`url`/`@id`-less `@value`. */
export function stringValue(value: unknown): string | null {
  if (typeof value === 'string') return value.trim() || null;
  if (typeof value === 'number') return String(value);
  if (Array.isArray(value)) {
    for (const v of value) {
      const s = stringValue(v);
      if (s) return s;
    }
    return null;
  }
  if (isNode(value) && '@value' in value) return stringValue(value['@value']);
  return null;
}

/** Every string in a value that may be a string, an array of strings, or objects with `url`/`@id`. */
export function stringList(value: unknown): string[] {
  const list = Array.isArray(value) ? value : [value];
  return list.flatMap((v) => {
    if (typeof v === 'string') return [v];
    if (isNode(v)) return [stringValue(v['url']) ?? stringValue(v['@id'])].filter((s): s is string => Boolean(s));
    return [];
  });
}

export function nodeValue(value: unknown): JsonLdNode | null {
  if (Array.isArray(value)) return value.map(nodeValue).find((v) => v !== null) ?? null;
  return isNode(value) ? value : null;
}
