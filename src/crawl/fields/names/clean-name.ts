/**
 * Cleaning a brand name found in a page's metadata: legal forms ("Example, Inc.", "Beispiel GmbH", "Esempio
 * S.p.A."), a domain suffix ("Example.com"), a parenthetical ("X (formerly Y)") and, when the shorter form is
 * what the domain or another source says, a trailing section word ("Example Blog"). Letters are never folded:
 * "Città" stays "Città" (only the comparison keys fold accents).
 */
import { parse } from 'tldts';

/**
 * Legal forms written after a company name, in many languages. Matched as whole trailing tokens (optionally after
 * a comma); case matters for the short all-capital forms so that words like "As" or "Se" are never cut.
 */
const LEGAL_FORMS = [
  // English-speaking countries
  'Inc\\.?', 'Incorporated', 'Corp\\.?', 'Corporation', 'LLC', 'L\\.L\\.C\\.', 'Ltd\\.?', 'Limited', 'PLC', 'plc', 'P\\.L\\.C\\.',
  'LLP', 'L\\.L\\.P\\.', 'L\\.P\\.', 'LP', 'Co\\.', 'Pty\\.? Ltd\\.?', 'Pty\\.? Limited', 'Pte\\.? Ltd\\.?', 'Sdn\\.? Bhd\\.?',
  // German-speaking countries
  'GmbH & Co\\.? KG(?:aA)?', 'GmbH', 'gGmbH', 'AG', 'KGaA', 'KG', 'OHG', 'GbR', 'UG(?: \\(haftungsbeschränkt\\))?', 'e\\.\\s?V\\.', 'e\\.\\s?K\\.', 'eG', 'SE',
  // Romance languages
  'S\\.A\\.S\\.', 'SAS', 'S\\.A\\.R\\.L\\.', 'SARL', 'S\\.à r\\.l\\.', 'S\\.A\\. de C\\.V\\.', 'S\\.A\\.', 'SA', 'S\\.p\\.A\\.', 'SpA', 'S\\.r\\.l\\.', 'Srl', 'SRL',
  'S\\.L\\.', 'S\\.L\\.U\\.', 'Ltda\\.?', 'Lda\\.?', 'S\\.C\\.', 'SCA',
  // Benelux, Nordics
  'B\\.V\\.', 'BV', 'N\\.V\\.', 'NV', 'BVBA', 'SPRL', 'Oyj', 'Oy', 'AB', 'ASA', 'AS', 'A/S', 'ApS', 'hf\\.?',
  // Central and Eastern Europe
  'Sp\\. z o\\.o\\.', 'S\\.A\\.', 'Kft\\.', 'Zrt\\.', 'Nyrt\\.', 's\\.r\\.o\\.', 'a\\.s\\.', 'd\\.o\\.o\\.', 'd\\.d\\.', 'OOO', 'ООО', 'АО', 'ПАО',
  // Asia
  'K\\.K\\.', 'KK', 'Co\\.,? Ltd\\.?', 'Pvt\\.? Ltd\\.?', 'Private Limited', '株式会社', '有限公司',
];
/** One or more legal forms at the end ("Co., Ltd.", "GmbH & Co. KG"), after a space or comma. */
const TRAILING_LEGAL = new RegExp(`(?:[\\s,]+(?:${LEGAL_FORMS.join('|')}))+\\.?$`, 'u');
/** Lower-case spellings people write too ("Acme inc", "Acme ltd"), where no brand word would end the same way. */
const TRAILING_LEGAL_LOOSE = /[\s,]+(?:inc|llc|ltd|gmbh|corp)\.?$/iu;
/** A leading legal form ("株式会社 Example", "OOO Example"). */
const LEADING_LEGAL = /^(?:株式会社|有限会社|ООО|OOO|АО|ПАО)\s*/u;

/** A parenthetical or bracketed aside anywhere ("X (formerly Y)", "X [beta]"), not the whole name. */
const PARENTHETICAL = /\s*[([（［][^()[\]（）［］]{1,60}[)\]）］]/gu;

/** Words that name a part of a site, not the brand, when they trail the name ("Example Blog"). */
export const SECTION_WORDS = /\s+(?:blog|news|newsroom|shop|store|online|official site|official website|website|magazine|home|homepage|support|help center|help centre|community|docs|documentation|careers|jobs|press|media|studio|app)$/iu;

export interface CleanNameOptions {
  /** The registrable domain's label, e.g. `example`: a section word goes only when the rest is closer to it. */
  label: string;
  /** Comparison keys of the other sources' names: a section word goes when the rest is one of them. */
  otherKeys?: ReadonlySet<string>;
}

/** The name as a brand shows it; null when nothing usable is left. */
export function cleanName(raw: string, options: CleanNameOptions): string | null {
  let name = raw.normalize('NFC').replace(/\s+/g, ' ').trim();
  name = stripParenthetical(name);
  name = stripLegalForm(name);
  name = stripDomainSuffix(name, options.label);
  name = stripSectionWord(name, options);
  name = name.replace(/^[\s,.:;|·•–—-]+|[\s,:;|·•–—-]+$/gu, '').trim();
  return name ? name : null;
}

export function stripParenthetical(name: string): string {
  const stripped = name.replace(PARENTHETICAL, '').trim();
  return stripped.length >= 2 ? stripped : name;
}

export function stripLegalForm(name: string): string {
  let out = name.replace(LEADING_LEGAL, '');
  // Repeated forms ("Example Holdings Co., Ltd.") come off in one pass; the loose pass catches lower-case ones.
  out = out.replace(TRAILING_LEGAL, '').replace(TRAILING_LEGAL_LOOSE, '').replace(/[\s,]+$/u, '');
  return out.length >= 2 ? out : name;
}

/**
 * "Example.com" → "Example", "Aktuálně.cz" → "Aktuálně": a single token that is a host name under a public
 * suffix loses the suffix. Several words ("Example .NET Tools") or no known suffix leave it alone.
 */
export function stripDomainSuffix(name: string, label: string): string {
  const match = /^([\p{L}\p{N}][\p{L}\p{N}-]*(?:\.[\p{L}\p{N}-]+)*)(\.[\p{L}]{2,}(?:\.[\p{L}]{2,})?)$/u.exec(name);
  if (!match) return name;
  const parsed = parse(name.toLowerCase().replace(/^www\./, ''), { allowPrivateDomains: false });
  if (!parsed.isIcann || !parsed.publicSuffix) return name;
  const head = name.slice(0, name.length - parsed.publicSuffix.length - 1).replace(/^www\./i, '');
  // "Example.co.uk" keeps "Example"; a sub-domain name ("Blog.Example.com") keeps its last label only when it is the brand's.
  const last = head.split('.').pop() ?? head;
  if (head.includes('.') && compactKey(last) !== compactKey(label)) return name;
  return last.length >= 2 ? last : name;
}

function stripSectionWord(name: string, { label, otherKeys }: CleanNameOptions): string {
  const match = SECTION_WORDS.exec(name);
  if (!match) return name;
  const rest = name.slice(0, match.index).trim();
  if (rest.length < 2) return name;
  const restKey = compactKey(rest);
  if (otherKeys?.has(restKey)) return rest;
  // "NBC News" on nbcnews.com keeps its word; "Example Blog" on example.com loses it.
  return keySimilarity(restKey, compactKey(label)) > keySimilarity(compactKey(name), compactKey(label)) ? rest : name;
}

/**
 * Comparison key: letters and digits only, lower case, accents folded ("Città" and "Citta" compare equal), a
 * leading "the" dropped. Only for comparing, never for display.
 */
export function compactKey(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]/gu, '')
    .replace(/^the(?=.{3})/, '');
}

/** 0..1: exact match 1, containment the length ratio, else 0. */
export function keySimilarity(a: string, b: string): number {
  if (!a || !b) return 0;
  if (a === b) return 1;
  if (a.includes(b) || b.includes(a)) return Math.min(a.length, b.length) / Math.max(a.length, b.length);
  return 0;
}
