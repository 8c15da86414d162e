/**
 * Social profile links (spec 2.2) from JSON-LD sameAs and the page's anchors. Only profile URLs count: share
 * buttons, intent links, posts, videos and personal profiles are rejected; x.com counts as twitter. URLs are
 * normalised (https, lower-case host, no query, fragment or trailing slash). Each network gets its most-cited
 * profile, with sameAs and header/footer placements weighing more than a mention in body copy, and a handle
 * that resembles the brand's domain label winning over one that does not (a partner's or an author's account).
 */
import { LINK_NAMES, type Link, type LinkName } from '../../domain/brand.js';
import { elementIndex } from '../page/element-index.js';
import { anyOf, attrEquals, closest, tagIs } from '../page/element-queries.js';
import { resolveUrl, type HtmlPage } from '../page/html-page.js';
import { findOrganization, stringList, type JsonLdNode } from '../page/json-ld.js';

export interface SocialProfile {
  name: LinkName;
  url: string;
  /** Case-insensitive identity of the profile, so x.com/acme and twitter.com/Acme count as one. */
  key: string;
}

const WEIGHT_SAME_AS = 3;
const WEIGHT_CHROME = 2;
const WEIGHT_BODY = 1;
/** A repository link names the org only indirectly. */
const WEIGHT_FACTOR_INDIRECT = 0.5;
const BRAND_LIKE_FACTOR = 1.5;

/** `header, footer, nav, [role="banner"], [role="contentinfo"]` */
const CHROME = anyOf(tagIs('header', 'footer', 'nav'), attrEquals('role', 'banner'), attrEquals('role', 'contentinfo'));

export function extractLinks(page: HtmlPage, jsonLd: JsonLdNode[]): Link[] {
  const scores = new Map<string, { profile: SocialProfile; score: number; order: number }>();
  const add = (href: string | undefined, weight: number): void => {
    const url = href ? resolveUrl(href, page.baseUrl) : null;
    const match = url ? classifyProfileUrl(url) : null;
    if (!match) return;
    const id = `${match.profile.name} ${match.profile.key}`;
    const entry = scores.get(id) ?? { profile: match.profile, score: 0, order: scores.size };
    entry.score += weight * (match.indirect ? WEIGHT_FACTOR_INDIRECT : 1);
    scores.set(id, entry);
  };
  const org = findOrganization(jsonLd, page.label);
  for (const url of stringList(org?.['sameAs'])) add(url, WEIGHT_SAME_AS);
  for (const el of elementIndex(page.$).byTag('a')) {
    const href = el.attribs['href'];
    if (href === undefined) continue;
    add(href, closest(el, CHROME) !== null ? WEIGHT_CHROME : WEIGHT_BODY);
  }
  return pickPerNetwork([...scores.values()].map((e) => ({ ...e, score: e.score * brandLikeness(e.profile.key, page.label) })));
}

/** 1.5 when the handle contains the domain label (or the reverse), else 1. */
export function brandLikeness(key: string, label: string): number {
  const handle = (key.split('/').pop() ?? '').toLowerCase().replace(/[^a-z0-9]/g, '');
  const l = label.toLowerCase().replace(/[^a-z0-9]/g, '');
  if (handle.length < 2 || l.length < 2) return 1;
  return handle.includes(l) || l.includes(handle) ? BRAND_LIKE_FACTOR : 1;
}

function pickPerNetwork(entries: { profile: SocialProfile; score: number; order: number }[]): Link[] {
  const best = new Map<LinkName, { profile: SocialProfile; score: number; order: number }>();
  for (const e of entries) {
    const current = best.get(e.profile.name);
    if (!current || e.score > current.score || (e.score === current.score && e.order < current.order)) {
      best.set(e.profile.name, e);
    }
  }
  return LINK_NAMES.flatMap((name) => {
    const e = best.get(name);
    return e ? [{ name, url: e.profile.url }] : [];
  });
}

interface Classified {
  profile: SocialProfile;
  indirect: boolean;
}

type Rule = (segments: string[]) => { path: string[]; indirect?: boolean } | null;

const HANDLE = /^[A-Za-z0-9_.-]{1,100}$/;

const TWITTER_RESERVED = new Set(['intent', 'share', 'home', 'search', 'hashtag', 'i', 'explore', 'settings', 'login', 'signup', 'messages', 'notifications', 'tos', 'privacy', 'compose', 'widgets']);
const FACEBOOK_RESERVED = new Set(['sharer', 'sharer.php', 'share.php', 'share', 'dialog', 'plugins', 'tr', 'login', 'login.php', 'home.php', 'profile.php', 'watch', 'events', 'help', 'policies', 'privacy', 'hashtag', 'story.php', 'permalink.php', 'photo.php', 'photo', 'search']);
const INSTAGRAM_RESERVED = new Set(['p', 'reel', 'reels', 'explore', 'stories', 'accounts', 'tv', 'about', 'legal', 'direct']);
const GITHUB_RESERVED = new Set(['features', 'pricing', 'login', 'join', 'about', 'sponsors', 'topics', 'marketplace', 'explore', 'search', 'settings', 'site', 'security', 'enterprise', 'collections', 'trending', 'apps', 'contact']);

/** One rule per network, keyed by the host without `www.`/`m.`/`mobile.`/country prefixes. */
const RULES: Record<string, { name: LinkName; rule: Rule }> = {
  'twitter.com': { name: 'twitter', rule: handleRule(TWITTER_RESERVED, /^[A-Za-z0-9_]{1,15}$/) },
  'x.com': { name: 'twitter', rule: handleRule(TWITTER_RESERVED, /^[A-Za-z0-9_]{1,15}$/) },
  'facebook.com': { name: 'facebook', rule: handleRule(FACEBOOK_RESERVED, HANDLE) },
  'fb.com': { name: 'facebook', rule: handleRule(FACEBOOK_RESERVED, HANDLE) },
  'instagram.com': { name: 'instagram', rule: handleRule(INSTAGRAM_RESERVED, HANDLE) },
  'github.com': { name: 'github', rule: githubRule },
  'youtube.com': { name: 'youtube', rule: youtubeRule },
  'linkedin.com': { name: 'linkedin', rule: prefixRule(['company', 'school', 'showcase']) },
  'crunchbase.com': { name: 'crunchbase', rule: prefixRule(['organization']) },
};

/** Classifies a URL as a social profile, normalised to https, lower-case host, no query/hash/trailing slash. */
export function classifyProfileUrl(href: string): Classified | null {
  let url: URL;
  try {
    url = new URL(href);
  } catch {
    return null;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
  const host = url.hostname.toLowerCase();
  const base = /^(?:www|m|mobile|[a-z]{2})\.([^.]+\.[^.]+)$/.exec(host)?.[1] ?? host;
  const network = RULES[base];
  if (!network) return null;
  const segments = url.pathname.split('/').filter(Boolean).map(safeDecode);
  const match = network.rule(segments);
  if (!match) return null;
  const path = match.path.join('/');
  return {
    profile: { name: network.name, url: `https://${host}/${path}`, key: path.toLowerCase() },
    indirect: match.indirect ?? false,
  };
}

function handleRule(reserved: Set<string>, pattern: RegExp): Rule {
  return (segments) => {
    const [first] = segments;
    if (!first || segments.length > 1 || reserved.has(first.toLowerCase()) || !pattern.test(first)) return null;
    return { path: [first] };
  };
}

function githubRule(segments: string[]): ReturnType<Rule> {
  const [first, second] = segments;
  if (!first || GITHUB_RESERVED.has(first.toLowerCase()) || !HANDLE.test(first)) return null;
  if (first === 'orgs') return second && HANDLE.test(second) ? { path: [second] } : null;
  return { path: [first], indirect: segments.length > 1 };
}

function youtubeRule(segments: string[]): ReturnType<Rule> {
  const [first, second] = segments;
  if (!first) return null;
  if (first.startsWith('@') && segments.length === 1) return { path: [first] };
  if (['channel', 'c', 'user'].includes(first) && second && HANDLE.test(second)) return { path: [first, second] };
  return null;
}

function prefixRule(prefixes: string[]): Rule {
  return (segments) => {
    const [first, second] = segments;
    if (!first || !second || !prefixes.includes(first.toLowerCase()) || !HANDLE.test(second)) return null;
    return { path: [first.toLowerCase(), second] };
  };
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
