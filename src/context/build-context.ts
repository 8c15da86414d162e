/**
 * Builds a brand's context profile from its context evidence (ADR 0035), extractively: every text it returns is a
 * span of text one of the brand's own pages states (a title part, a meta description, a heading, a paragraph or
 * sentence of one, a JSON-LD string), recorded in `sources` with the page it came from. A field the site does not
 * support is null or empty; nothing is paraphrased, summarized or guessed. Pure and synchronous.
 */
import type { AudienceSegment, ContextBlock, ContextEvidence, ContextPage, ContextProfile, ContextSource, ProductOrService } from '../domain/brand-context.js';

const MAX_TAGS = 10;
const MAX_AUDIENCE = 5;
const MAX_OFFERS = 8;
const MAX_LISTED = 6;
/** A mission, voice or style sentence longer than this is a paragraph, not a statement. */
const MAX_SENTENCE = 320;

interface Found {
  text: string;
  page: string;
}

/** Everything a rule may read, in page order (home, about, product, pricing). */
class Evidence {
  constructor(readonly pages: readonly ContextPage[]) {}

  of(...kinds: ContextPage['kind'][]): ContextPage[] {
    return this.pages.filter((p) => kinds.includes(p.kind));
  }

  get home(): ContextPage | undefined {
    return this.pages.find((p) => p.kind === 'home');
  }

  /** Sentences of the blocks of `pages`, each with its page and the block's heading. */
  *sentences(pages: readonly ContextPage[]): Generator<Found & { heading: string | null }> {
    for (const page of pages) for (const block of page.blocks) for (const text of sentencesOf(block.text)) yield { text, page: page.path, heading: block.heading };
  }
}

/** Splits at sentence ends followed by a capital or a digit; the parts are exact substrings of the text. */
export function sentencesOf(text: string): string[] {
  return text
    .split(/(?<=[.!?])\s+(?=["“'(]?[A-Z0-9])/)
    .map((s) => s.trim())
    .filter(Boolean);
}

const words = (text: string): number => text.split(/\s+/).filter(Boolean).length;
const same = (a: string | null | undefined, b: string | null | undefined): boolean => Boolean(a && b && a.toLowerCase() === b.toLowerCase());

export function buildContextProfile(evidence: ContextEvidence, brandName: string | null): ContextProfile {
  const ev = new Evidence(evidence.pages);
  const sources: ContextSource[] = [];
  const take = (field: string, found: Found | null): string | null => {
    if (!found) return null;
    sources.push({ field, page: found.page });
    return found.text;
  };
  const description = take('identity.description', findDescription(ev));
  const tagline = take('identity.tagline', findTagline(ev, brandName));
  const mission = take('identity.mission', findMission(ev));
  const tags = findTags(ev).map((t, i) => take(`identity.tags[${i}]`, t) ?? '');
  const valueProposition = take('positioning.value_proposition', findValueProposition(ev, { description, tagline, brandName }));
  const audience = findAudience(ev).map((a, i) => ({ segment: take(`positioning.target_audience[${i}].segment`, a.segment) ?? '', description: take(`positioning.target_audience[${i}].description`, a.description) }));
  const offers = findOffers(ev, brandName).map((o, i) => ({ name: take(`positioning.products_and_services[${i}].name`, o.name) ?? '', type: o.type, description: take(`positioning.products_and_services[${i}].description`, o.description) }));
  const voice = findStatement(ev, VOICE);
  const style = findStatement(ev, STYLE);
  return {
    identity: { tagline, mission, description, tags },
    positioning: { value_proposition: valueProposition, target_audience: audience satisfies AudienceSegment[], products_and_services: offers satisfies ProductOrService[] },
    brand: {
      voice: {
        summary: take('brand.voice.summary', voice?.sentence ?? null),
        attributes: (voice?.attributes ?? []).map((a, i) => take(`brand.voice.attributes[${i}]`, a) ?? ''),
        avoid: findAvoid(ev).map((a, i) => take(`brand.voice.avoid[${i}]`, a) ?? ''),
      },
      style: {
        summary: take('brand.style.summary', style?.sentence ?? null),
        attributes: (style?.attributes ?? []).map((a, i) => take(`brand.style.attributes[${i}]`, a) ?? ''),
      },
    },
    sources,
  };
}

/** The organization's own JSON-LD description, else the home page's meta description, else the about page's first paragraph. */
function findDescription(ev: Evidence): Found | null {
  for (const page of ev.of('home', 'about')) {
    const org = page.jsonLd.find((n) => /Organization|Corporation|Business|NGO|Brand/.test(n.type) && n.description);
    if (org?.description) return { text: org.description, page: page.path };
  }
  const home = ev.home;
  if (home?.metaDescription && words(home.metaDescription) >= 4) return { text: home.metaDescription, page: home.path };
  for (const page of ev.of('about')) {
    const block = page.blocks.find((b) => words(b.text) >= 8);
    if (block) return { text: block.text, page: page.path };
  }
  return null;
}

const TITLE_SEPARATORS = /\s+[|–—·•:-]\s+/;

/** JSON-LD `slogan`, else the part of the home title that is not the brand's name, else a short home h1. */
function findTagline(ev: Evidence, brandName: string | null): Found | null {
  for (const page of ev.pages) {
    const slogan = page.jsonLd.find((n) => n.slogan)?.slogan;
    if (slogan) return { text: slogan, page: page.path };
  }
  const home = ev.home;
  if (!home) return null;
  const parts = home.title ? home.title.split(TITLE_SEPARATORS) : [];
  if (parts.length > 1) {
    const phrase = parts.find((part) => !namesBrand(part, brandName) && words(part) >= 2 && words(part) <= 12);
    if (phrase) return { text: phrase, page: home.path };
  }
  const h1 = home.headings.find((h) => h.level === 1)?.text;
  if (h1 && !namesBrand(h1, brandName) && words(h1) >= 2 && words(h1) <= 12) return { text: h1, page: home.path };
  return null;
}

/** The brand's name alone, or with a company form or "home" ("Acme", "Acme Inc.", "Acme – Home"). */
function namesBrand(text: string, brandName: string | null): boolean {
  if (!brandName) return false;
  const key = (s: string): string => s.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ').trim();
  const name = key(brandName);
  const rest = key(text).replace(name, '').trim();
  return key(text).includes(name) && (rest === '' || /^(inc|ltd|llc|gmbh|co|corp|home|homepage|official site|website)$/.test(rest));
}

const MISSION_SENTENCE = /\b(our (mission|purpose|vision) is|on a mission to|we exist to|our mission:)/i;
const MISSION_HEADING = /^(our )?(mission|purpose)( statement)?$/i;

/** A sentence that states the mission, or the first sentence under a "Mission" heading; about pages first. */
function findMission(ev: Evidence): Found | null {
  const pages = [...ev.of('about'), ...ev.of('home', 'product', 'pricing')];
  for (const s of ev.sentences(pages)) if (MISSION_SENTENCE.test(s.text) && s.text.length <= MAX_SENTENCE) return s;
  for (const s of ev.sentences(pages)) if (s.heading && MISSION_HEADING.test(s.heading) && s.text.length <= MAX_SENTENCE) return s;
  return null;
}

/** The organization's JSON-LD keywords, then the home page's meta keywords, as listed. */
function findTags(ev: Evidence): Found[] {
  const tags: Found[] = [];
  const add = (text: string, page: string): void => {
    if (tags.length < MAX_TAGS && !tags.some((t) => same(t.text, text))) tags.push({ text, page });
  };
  for (const page of ev.of('home', 'about')) for (const node of page.jsonLd) for (const k of node.keywords) add(k, page.path);
  const home = ev.home;
  if (home) for (const k of home.keywords) add(k, home.path);
  return tags;
}

/** The home page's hero: the first paragraph under its h1, else the h1 itself, when it says something new. */
function findValueProposition(ev: Evidence, known: { description: string | null; tagline: string | null; brandName: string | null }): Found | null {
  const home = ev.home;
  const h1 = home?.headings.find((h) => h.level === 1)?.text;
  if (!home || !h1) return null;
  const hero = home.blocks.find((b) => b.heading === h1 && words(b.text) >= 6);
  if (hero && !same(hero.text, known.description) && !same(hero.text, known.tagline)) return { text: hero.text, page: home.path };
  if (!same(h1, known.tagline) && !namesBrand(h1, known.brandName) && words(h1) >= 3 && words(h1) <= 24) return { text: h1, page: home.path };
  return null;
}

const AUDIENCE_HEADING = /^for\s+([A-Za-z][\w&' -]{1,40})$/i;
const AUDIENCE_SENTENCE = /\b(?:built|designed|made|tailored|created|perfect|ideal)\s+for\s+((?:[a-z0-9&'-]+\s?){1,5}?)(?=[,.;:!?]|\s+(?:who|that|and|to|in|of|with|across|like|at|on)\b|$)/i;
const NOT_AUDIENCE = /^(you|your|the|a|an|it|this|that|free|life|all|everyone|anyone|speed|scale|today|now|more|less|good|growth|success)\b/i;

/** Segments the site names: JSON-LD `audience`, "For …" headings (with the paragraph below), "built for …" sentences. */
function findAudience(ev: Evidence): { segment: Found; description: Found | null }[] {
  const found: { segment: Found; description: Found | null }[] = [];
  const add = (segment: Found, description: Found | null): void => {
    const text = segment.text.trim();
    if (found.length >= MAX_AUDIENCE || !text || NOT_AUDIENCE.test(text) || found.some((f) => same(f.segment.text, text))) return;
    found.push({ segment: { text, page: segment.page }, description });
  };
  for (const page of ev.pages) for (const node of page.jsonLd) if (node.audience) add({ text: node.audience, page: page.path }, null);
  for (const page of ev.pages) {
    for (const heading of page.headings) {
      const match = AUDIENCE_HEADING.exec(heading.text);
      if (!match?.[1]) continue;
      const block = page.blocks.find((b) => b.heading === heading.text);
      add({ text: match[1], page: page.path }, block ? { text: block.text, page: page.path } : null);
    }
  }
  for (const s of ev.sentences(ev.pages)) {
    const match = AUDIENCE_SENTENCE.exec(s.text);
    if (match?.[1] && s.text.length <= MAX_SENTENCE) add({ text: match[1], page: s.page }, { text: s.text, page: s.page });
  }
  return found;
}

const OFFER_TYPES = /^(Product|Service|SoftwareApplication|WebApplication|MobileApplication|FinancialProduct|Course|Offer)$/;
const SERVICE_TYPES = /^(Service|FinancialProduct|Course)$/;
const SERVICE_WORDS = /\b(services?|consulting|support plans?|agency|managed|training|installation|repairs?|delivery|care|coaching|advisory)\b/i;
/** Section headings of product pages that name no offer. */
const GENERIC_HEADING = /^(features?|pricing|plans|faqs?|frequently asked.*|contact.*|about.*|testimonials?|customers?|get started|sign up.*|ready to.*|why .*|how .*|what .*|our .*|trusted by.*|integrations?|resources|blog|news|press|careers|overview|benefits|compare.*|all plans.*)$/i;

/** JSON-LD offers first, then the named sections of product and pricing pages with the paragraph under each. */
function findOffers(ev: Evidence, brandName: string | null): { name: Found; type: ProductOrService['type']; description: Found | null }[] {
  const found: { name: Found; type: ProductOrService['type']; description: Found | null }[] = [];
  const add = (name: Found, type: ProductOrService['type'], description: Found | null): void => {
    if (found.length >= MAX_OFFERS || found.some((f) => same(f.name.text, name.text)) || namesBrand(name.text, brandName)) return;
    found.push({ name, type, description });
  };
  for (const page of ev.pages) {
    for (const node of page.jsonLd) {
      if (!OFFER_TYPES.test(node.type) || !node.name) continue;
      const type = SERVICE_TYPES.test(node.type) || SERVICE_WORDS.test(node.name) ? 'service' : 'product';
      add({ text: node.name, page: page.path }, type, node.description ? { text: node.description, page: page.path } : null);
    }
  }
  for (const page of ev.of('product', 'pricing')) {
    for (const heading of page.headings) {
      if (heading.level < 2 || heading.level > 3 || !isOfferName(heading.text)) continue;
      const block: ContextBlock | undefined = page.blocks.find((b) => b.heading === heading.text && words(b.text) >= 4);
      if (!block) continue;
      const type = SERVICE_WORDS.test(heading.text) || SERVICE_WORDS.test(block.text) ? 'service' : 'product';
      add({ text: heading.text, page: page.path }, type, { text: block.text, page: page.path });
    }
  }
  return found;
}

function isOfferName(text: string): boolean {
  return words(text) <= 6 && !/[?!]$/.test(text) && !GENERIC_HEADING.test(text);
}

interface Statement {
  sentence: Found;
  attributes: Found[];
}

const VOICE = /\b(?:our|the brand'?s?)\s+(?:voice|tone(?: of voice)?|writing)\s+(?:is|are|should be|stays|sounds|feels)\s+(.+)$/i;
const STYLE = /\b(?:our|the brand'?s?)\s+(?:design|visual (?:identity|style|language)|style|aesthetic|look and feel)\s+(?:is|are|should be|stays|feels)\s+(.+)$/i;

/** A sentence stating the brand's voice (or style) and the qualities it lists ("… is clear, warm and direct."). */
function findStatement(ev: Evidence, pattern: RegExp): Statement | null {
  for (const s of ev.sentences(ev.pages)) {
    if (s.text.length > MAX_SENTENCE) continue;
    const match = pattern.exec(s.text);
    if (!match?.[1]) continue;
    return { sentence: { text: s.text, page: s.page }, attributes: listedQualities(match[1]).map((text) => ({ text, page: s.page })) };
  }
  return null;
}

/** "clear, warm and never stuffy." → ["clear", "warm"]: short items of a list, as written; negated items left out. */
function listedQualities(rest: string): string[] {
  const list = rest.replace(/[.!?]+$/, '').split(/\s*,\s*|\s+(?:and|or|but)\s+/i);
  return list
    .map((item) => item.trim())
    .filter((item) => item && words(item) <= 3 && !/^(never|not|no|without)\b/i.test(item) && /^[\p{L}][\p{L}' -]*$/u.test(item))
    .slice(0, MAX_LISTED);
}

const AVOID = /\b(?:we|our (?:voice|tone|writing))\s+(?:never|avoids?|steers? clear of|stays? away from)\s+((?:[\p{L}'-]+\s?){1,4}?)(?=[,.;:!?]|\s+(?:and|or|but)\b|$)/iu;

/** What the site says its writing avoids ("We avoid jargon", "Our tone never …"). */
function findAvoid(ev: Evidence): Found[] {
  const found: Found[] = [];
  for (const s of ev.sentences(ev.pages)) {
    if (found.length >= MAX_LISTED) break;
    if (s.text.length > MAX_SENTENCE || !/\b(voice|tone|write|writing|words|copy|language)\b/i.test(s.text)) continue;
    const match = AVOID.exec(s.text);
    const item = match?.[1]?.trim();
    if (item && !found.some((f) => same(f.text, item))) found.push({ text: item, page: s.page });
  }
  return found;
}
