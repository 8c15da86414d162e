/**
 * Bounds on what a site can make one crawl parse and decode (issue 13; docs/security.md "Bounds on what a site can
 * make us parse"): HTML nesting, elements and attributes, CSS bytes, rules and parse time, image pixels. Every
 * part has a default; the composition root passes the configured values (BRANDBASE_HTML_*, BRANDBASE_CSS_*,
 * BRANDBASE_*_PIXELS) through `CrawlOptions.limits`, and the crawl hands them on with its `CrawlBudget`.
 */
import { DEFAULT_IMAGE_LIMITS, type ImageLimits } from '../media/image-limits.js';
import { DEFAULT_HTML_LIMITS, type HtmlLimits } from './page/bounded-html.js';
import { DEFAULT_CSS_LIMITS, type CssLimits } from './page/parse-css.js';

export interface CrawlLimits {
  html: Readonly<HtmlLimits>;
  css: Readonly<CssLimits>;
  images: Readonly<ImageLimits>;
}

export const DEFAULT_CRAWL_LIMITS: Readonly<CrawlLimits> = Object.freeze({
  html: DEFAULT_HTML_LIMITS,
  css: DEFAULT_CSS_LIMITS,
  images: DEFAULT_IMAGE_LIMITS,
});
