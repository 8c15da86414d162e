import { parseHtmlPage, type HtmlPage } from '../../src/crawl/page/html-page.js';
import { parseCss, type ParsedCss } from '../../src/crawl/page/parse-css.js';

/** A parsed page from an HTML string, as the crawler would see it at `url`. */
export function htmlPageOf(html: string, url = 'https://www.acme.test/'): HtmlPage {
  return parseHtmlPage(Buffer.from(html, 'utf8'), url, 'text/html; charset=utf-8');
}

export function cssOf(...texts: string[]): ParsedCss[] {
  return texts.map((text, i) => parseCss(text, `https://www.acme.test/style-${i}.css`));
}
