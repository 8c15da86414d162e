/**
 * Whether the page the crawler got is about the site (a home page) or about one thing on it (an article, a
 * video, a product, a profile): a content page's own description is its lede, not the brand's description.
 * A site's "/" can be such a page (a blog whose home shows the latest post, a redirect to a story), and a
 * lookup of a URL may land on one.
 */
import { elementIndex } from '../../page/element-index.js';
import { anyOf, attrEquals, attrHasWord, findIn, firstAttr, tagIs } from '../../page/element-queries.js';
import type { HtmlPage } from '../../page/html-page.js';
import { nodeTypes, type JsonLdNode } from '../../page/json-ld.js';

/** schema.org types of a single piece of content. */
const CONTENT_TYPES = /^(Article|NewsArticle|BlogPosting|Report|TechArticle|ScholarlyArticle|LiveBlogPosting|OpinionNewsArticle|ReportageNewsArticle|AnalysisNewsArticle|BackgroundNewsArticle|ReviewNewsArticle|Review|Recipe|PodcastEpisode|Episode|Chapter)$/;
/** og:type values of a home page; anything else (article, video.*, product, profile, …) is one piece of content. */
const SITE_OG_TYPES = /^(website|site|blog|company|organization|non_profit|university|school|government|product\.group)$/i;
const ARTICLE_META = anyOf(
  attrEquals('property', 'article:published_time', true),
  attrEquals('property', 'article:section', true),
  attrEquals('name', 'parsely-type', true),
  attrEquals('name', 'sailthru.date', true),
);
const OG_TYPE = anyOf(attrEquals('property', 'og:type', true), attrEquals('name', 'og:type', true));
const OG_URL = anyOf(attrEquals('property', 'og:url', true), attrEquals('name', 'og:url', true));
const ITEM_ARTICLE = (el: { attribs: Record<string, string | undefined> }): boolean => el.attribs['itemscope'] !== undefined && /schema\.org\/(Article|NewsArticle|BlogPosting|TechArticle|Report)\b/i.test(el.attribs['itemtype'] ?? '');
/** A locale root (`/en/`, `/en-us`, `/fr/index.html`) is still the home page. */
const HOME_PATH = /^\/?(?:[a-z]{2}(?:[-_][a-z]{2})?\/?)?(?:index\.(?:html?|php|aspx?))?$/i;

export type PageKind = 'home' | 'content';

export function pageKind(page: HtmlPage, jsonLd: JsonLdNode[]): PageKind {
  const index = elementIndex(page.$);
  const metas = index.byTag('meta');
  const ogType = (firstAttr(metas, OG_TYPE, 'content') ?? '').trim();
  if (ogType && !SITE_OG_TYPES.test(ogType)) return 'content';
  if (jsonLd.some((n) => nodeTypes(n).some((t) => CONTENT_TYPES.test(t)))) return 'content';
  if (metas.some(ARTICLE_META)) return 'content';
  if (index.all.some(ITEM_ARTICLE)) return 'content';
  if (declaresDeepUrl(page, index.byTag('link'), metas)) return 'content';
  return singleArticle(page) ? 'content' : 'home';
}

/** The page's canonical URL (or og:url) is a path below the home page on the same site. */
function declaresDeepUrl(page: HtmlPage, links: ReturnType<typeof elementIndex>['all'], metas: ReturnType<typeof elementIndex>['all']): boolean {
  const canonical = links.find((el) => attrHasWord('rel', 'canonical', true)(el))?.attribs['href'] ?? firstAttr(metas, OG_URL, 'content');
  if (!canonical) return false;
  try {
    const url = new URL(canonical, page.url);
    // The query is ignored: `/?lang=en` is still the home page.
    return !HOME_PATH.test(url.pathname);
  } catch {
    return false;
  }
}

/** Exactly one <article> that holds the page's <h1>: the page is that article (a home page lists several). */
function singleArticle(page: HtmlPage): boolean {
  const articles = elementIndex(page.$).byTag('article');
  const [only] = articles;
  return articles.length === 1 && only !== undefined && findIn(only, tagIs('h1')).length > 0;
}
