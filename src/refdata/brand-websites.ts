/**
 * A brand's official website (Wikidata P856, as name-suggestion-index carries it) to the brand's registrable domain,
 * or the reason it cannot be one: a page on a platform the brand does not own (a social profile, a marketplace or
 * app-store page, a link page or URL shortener, a generic hosting domain) names the platform's domain, never the
 * brand's, so crawling it would answer Facebook's logo for a pizzeria. A platform's own brands keep their domain:
 * the rule applies only when none of the brand's names carries the platform's name (`Amazon Fresh` keeps amazon.com).
 * docs/reference-data.md "Brand knowledge set" lists the domains.
 */
import { getDomain } from 'tldts';
import { registrableDomain } from '../domain/identifiers.js';
import { normalizeName } from '../domain/search-text.js';
import { isoCountry } from './countries.js';
import { parseWebsiteUrl } from './website-domain.js';

export type WebsiteDrop = 'social-profile' | 'marketplace-or-app-store-page' | 'link-page' | 'generic-hosting' | 'unparseable-url';

/** Social networks and messengers: a profile there is the brand's page on someone else's site. */
const SOCIAL = [
  'facebook.com', 'fb.com', 'fb.me', 'instagram.com', 'twitter.com', 'x.com', 'linkedin.com', 'youtube.com', 'youtu.be',
  'tiktok.com', 'pinterest.com', 'vk.com', 'vkontakte.ru', 'ok.ru', 'weibo.com', 'weibo.cn', 't.me', 'telegram.me',
  'telegram.org', 'whatsapp.com', 'wa.me', 'threads.net', 'snapchat.com', 'line.me', 'tumblr.com', 'reddit.com',
  'flickr.com', 'douyin.com', 'xiaohongshu.com', 'band.us', 'mastodon.social', 'bsky.app', 'discord.gg', 'discord.com',
  'foursquare.com',
];
/** Hosts of social pages on domains that are brands in their own right (Tencent, Kakao, Naver). */
const SOCIAL_HOSTS = ['weixin.qq.com', 'mp.weixin.qq.com', 'pf.kakao.com', 'story.kakao.com', 'blog.naver.com', 'cafe.naver.com', 'm.blog.naver.com'];

/**
 * Marketplaces, delivery and booking platforms, app stores and map listings, by the registrable domain's first label
 * (any country's domain: amazon.de, mercadolibre.com.mx) or by host.
 */
const MARKETPLACE_LABELS = [
  'amazon', 'ebay', 'etsy', 'aliexpress', 'alibaba', 'shopee', 'lazada', 'tokopedia', 'bukalapak', 'mercadolibre',
  'mercadolivre', 'rakuten', 'tmall', 'taobao', 'flipkart', 'ubereats', 'doordash', 'grubhub', 'deliveroo', 'justeat',
  'just-eat', 'foodpanda', 'wolt', 'glovoapp', 'zomato', 'swiggy', 'talabat', 'ifood', 'rappi', 'menulog',
  'skipthedishes', 'tripadvisor', 'booking', 'expedia', 'agoda', 'airbnb', 'hotels', 'trivago', 'yelp', 'opentable',
];
const MARKETPLACE_HOSTS = [
  'apps.apple.com', 'itunes.apple.com', 'play.google.com', 'maps.google.com', 'business.google.com', 'appgallery.huawei.com',
  'apps.microsoft.com', 'g.page', 'maps.app.goo.gl', 'mall.jd.com', 'map.naver.com', 'map.kakao.com',
];
/** Link-in-bio pages and URL shorteners: they lead somewhere else, or to several places. */
const LINK_PAGES = [
  'linktr.ee', 'linkin.bio', 'bio.link', 'beacons.ai', 'lnk.bio', 'taplink.cc', 'msha.ke', 'about.me', 'linkr.bio',
  'bit.ly', 'goo.gl', 'tinyurl.com', 't.co', 'ow.ly', 'rebrand.ly', 'cutt.ly', 'shorturl.at', 'lin.ee',
];
/**
 * Generic hosting: a site builder's or blog host's domain (registrable domains here never name the brand:
 * `pizzeria.wixsite.com` is wixsite.com by the public suffix list, whose private section is not read).
 */
const HOSTING = [
  'blogspot.com', 'wordpress.com', 'wixsite.com', 'wix.com', 'weebly.com', 'square.site', 'squarespace.com',
  'business.site', 'negocio.site', 'site123.me', 'jimdosite.com', 'jimdo.com', 'webnode.page', 'webnode.com',
  'ueniweb.com', 'godaddysites.com', 'myshopify.com', 'github.io', 'netlify.app', 'vercel.app', 'webflow.io',
  'yolasite.com', 'tilda.ws', 'ucoz.ru', 'ucoz.net', 'narod.ru', 'strikingly.com', 'mystrikingly.com', 'carrd.co',
  'canva.site', 'glitch.me', 'herokuapp.com', 'firebaseapp.com', 'web.app', 'over-blog.com', 'e-monsite.com',
  'hatenablog.com', 'ameblo.jp', 'fc2.com', 'livejournal.com', 'medium.com', 'substack.com', 'mailchimpsites.com',
  'blogger.com', 'sites.google.com', 'wikipedia.org', 'wikimedia.org', 'wikidata.org',
];

function matchesHost(host: string, hosts: readonly string[]): string | null {
  return hosts.find((h) => host === h || host.endsWith(`.${h}`)) ?? null;
}

/** The platform the URL is a page on, with the reason and the platform's name, or null for the brand's own site. */
function platform(host: string, domain: string): { drop: WebsiteDrop; label: string } | null {
  const label = domain.split('.')[0] ?? domain;
  const hostHit = (hosts: readonly string[], drop: WebsiteDrop) => {
    const hit = matchesHost(host, hosts);
    return hit === null ? null : { drop, label: hit.split('.').slice(-2)[0] ?? hit };
  };
  if (matchesHost(domain, SOCIAL)) return { drop: 'social-profile', label };
  const social = hostHit(SOCIAL_HOSTS, 'social-profile');
  if (social) return social;
  if (matchesHost(domain, LINK_PAGES)) return { drop: 'link-page', label };
  const market = hostHit(MARKETPLACE_HOSTS, 'marketplace-or-app-store-page');
  if (market) return market;
  if (MARKETPLACE_LABELS.includes(label)) return { drop: 'marketplace-or-app-store-page', label };
  const hosting = hostHit(HOSTING, 'generic-hosting');
  if (hosting) return hosting;
  // A site on a domain shared by its customers (the public suffix list's private section: `gap.uk.com`,
  // `shop.myshopify.com`): the registrable domain answers for all of them, never for this brand.
  const shared = getDomain(host, { allowPrivateDomains: true });
  if (shared !== null && shared !== domain) return { drop: 'generic-hosting', label: '' };
  return null;
}

/** `Amazon Fresh` carries `amazon`: letters and digits only, so `Just Eat` carries `just-eat`'s `justeat`. */
function namesCarry(names: readonly string[], label: string): boolean {
  const squashed = label.replace(/[^a-z0-9]/g, '');
  return squashed.length > 0 && names.some((n) => normalizeName(n).replace(/ /g, '').includes(squashed));
}

/**
 * The brand's registrable domain from one of its official website URLs, or why the URL is no brand website.
 * `names` are the brand's names (display name, brand tags, match names): a platform's own brand keeps its domain.
 */
export function brandWebsite(url: string, names: readonly string[]): { domain: string } | { drop: WebsiteDrop } {
  const parsed = parseWebsiteUrl(url);
  const domain = parsed === null ? null : registrableDomain(parsed.hostname);
  if (parsed === null || domain === null) return { drop: 'unparseable-url' };
  const host = parsed.hostname.toLowerCase().replace(/\.$/, '');
  // Google Maps listings also live under google.<tld>/maps.
  const hit = domain.startsWith('google.') && /^\/maps(\/|$)/.test(parsed.pathname) ? { drop: 'marketplace-or-app-store-page' as const, label: 'google' } : platform(host, domain);
  if (hit === null || namesCarry(names, hit.label)) return { domain };
  return { drop: hit.drop };
}

/** Country-code TLDs sold as generic names: a site there names no country. */
const GENERIC_CCTLDS = new Set(['io', 'co', 'ai', 'tv', 'me', 'fm', 'ly', 'gg', 'to', 'ws', 'cc', 'la', 'nu', 'sh', 'ac', 'app', 'eu', 'su']);

/** The country a registrable domain's top-level domain names (`mcdonalds.co.uk` → GB), or null. */
export function domainCountry(domain: string): string | null {
  const tld = domain.slice(domain.lastIndexOf('.') + 1);
  if (!/^[a-z]{2}$/.test(tld) || GENERIC_CCTLDS.has(tld)) return null;
  return isoCountry(tld);
}
