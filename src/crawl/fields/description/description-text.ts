/**
 * What makes a text a usable brand description: prose, not a cookie notice, a login prompt, a newsletter or
 * app pitch, a privacy line or navigation; not a fragment cut out of a longer text. Sentences of such kinds
 * appended to a real description are dropped ("Acme builds rockets. Sign up for our newsletter!" keeps the
 * first sentence); a text that is nothing but them is refused.
 */
import { cleanText } from '../../page/html-page.js';
import { GENERIC_NAMES } from '../names/choose-name.js';

const BOILERPLATE = /(\bcookies?\b.*\b(use|accept|consent|settings|policy)\b|\b(accept|manage) (all )?cookies\b|\bwe use cookies\b|\bjavascript (is )?(disabled|required)\b|\benable javascript\b|\byour browser\b.*\b(not supported|out of date|outdated)\b|^(skip to (main )?content|menu|navigation|search|loading\.*|log ?in|sign ?in)$)/i;
/**
 * Sentences that ask the reader to do something with their account or inbox, or state a legal notice: never
 * part of what a brand is.
 */
const PITCH_SENTENCE = new RegExp([
  '\\b(sign|log) ?(up|in)\\b.{0,40}\\b(newsletter|updates|account|continue|access|inbox|email)',
  '\\bsubscribe\\b.{0,40}\\b(newsletter|updates|inbox|email|channel|today|now)',
  '\\b(newsletter|mailing list)\\b.{0,60}\\b(sign up|subscribe|join|get|delivered|inbox)',
  '\\b(get|receive)\\b.{0,40}\\b(delivered to|in) your inbox',
  '\\b(please )?(log|sign) ?in\\b.{0,30}\\b(to|with)\\b',
  '\\b(create|have) an account\\b',
  '\\bforgot (your )?password\\b',
  '\\bdownload (our|the) app\\b',
  '\\b(privacy( policy| notice)?|opt[- ]out|terms of (use|service))\\b.{0,40}\\b(information|apply|applies|see|read|visit)\\b',
  '\\bsee\\s*\\S*\\s*for privacy\\b',
  '\\bthis site is protected by recaptcha\\b',
].join('|'), 'i');
const NAV_PREFIX = /^(home|homepage|start)\s*[|›»>:/–—-]\s*/i;
/** Shorter than this, a text says too little to describe anyone ("Read more", a 17-character fragment). */
const MIN_DESCRIPTION_CHARS = 20;
const MIN_DESCRIPTION_WORDS = 3;

/**
 * A usable description, or null; leading crumbs like "Home | " and pitch sentences are removed. `metadata`:
 * the text comes from a description field (meta tag, JSON-LD), where a title-cased tagline is not navigation.
 */
export function cleanDescription(value: string | null | undefined, options: { metadata?: boolean } = {}): string | null {
  const text = withoutPitchSentences(decodeEntities(cleanText(value)).replace(NAV_PREFIX, '').trim());
  if (!text || GENERIC_NAMES.test(text) || BOILERPLATE.test(text) || isFragment(text)) return null;
  // Mostly link labels glued together ("Home Products Pricing Blog Contact") is navigation, not prose.
  const words = text.split(' ');
  if (!options.metadata && words.length >= 4 && !/[.,!?;:]/.test(text) && words.every((w) => /^[A-Z]/.test(w))) return null;
  return text;
}

const NAMED_ENTITIES: Record<string, string> = { amp: '&', quot: '"', apos: "'", lt: '<', gt: '>', nbsp: ' ', mdash: '—', ndash: '–', hellip: '…', rsquo: '’', lsquo: '‘', rdquo: '”', ldquo: '“' };

/** JSON-LD and double-escaped meta tags carry HTML entities ("Area&#039;s"): decoded once. */
export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]{1,6}|#\d{1,7}|[a-z]{2,8});/gi, (whole, code: string) => {
    if (code[0] === '#') {
      const n = code[1] === 'x' || code[1] === 'X' ? Number.parseInt(code.slice(2), 16) : Number(code.slice(1));
      return n > 0 && n <= 0x10ffff ? String.fromCodePoint(n) : whole;
    }
    return NAMED_ENTITIES[code.toLowerCase()] ?? whole;
  });
}

/**
 * A piece of a longer text: too short, opening mid-sentence ("[...] it's natural to", "…and so", a lower-case
 * start) or cut off without an end ("…the Nasdaq Center,..."). Taglines ("Startup and Technology News") are
 * not fragments.
 */
export function isFragment(text: string): boolean {
  const t = text.trim();
  if (t.length < MIN_DESCRIPTION_CHARS || t.split(/\s+/).length < MIN_DESCRIPTION_WORDS) return true;
  if (/^(\[\s*(\.\.\.|…)\s*\]|\.\.\.|…)/.test(t)) return true;
  if (/^[\p{Ll}]/u.test(t) && !/^(e[A-Z]|i[A-Z])/.test(t)) return true;
  return /[,;:]\s*(\.\.\.|…)$/.test(t);
}

/** Splits at sentence ends and drops the sentences that are pitches or notices. */
export function withoutPitchSentences(text: string): string {
  if (!PITCH_SENTENCE.test(text)) return text;
  const sentences = text.match(/[^.!?]+(?:[.!?]+|$)/g) ?? [text];
  return sentences.filter((s) => !PITCH_SENTENCE.test(s)).join('').trim();
}
