import type { CheerioAPI } from 'cheerio';
import { describe, expect, it } from 'vitest';
import { elementIndex } from '../../src/crawl/page/element-index.js';
import {
  anyOf,
  attrContains,
  attrContainsAny,
  attrEquals,
  attrHasAnyWord,
  attrHasWord,
  attrStartsWithIgnoreCase,
  childElements,
  closest,
  findIn,
  hasAncestor,
  parentOf,
  parentsOf,
  tagIs,
  textOf,
  type ElementTest,
} from '../../src/crawl/page/element-queries.js';
import type { HtmlElement } from '../../src/crawl/page/html-page.js';
import { pageZones } from '../../src/crawl/page/page-zones.js';
import { compileSimpleSelector } from '../../src/crawl/page/selector-match.js';
import { htmlPageOf } from './html-page-of.js';

/**
 * The element queries replace cheerio selector calls in the extractors, so on any page they must give exactly
 * what cheerio gives. These documents hold what makes the two differ if done naively: <template> content
 * (queried by `$()`, but not by a scoped `find`, and a boundary for `closest`/`parents`), SVG foreign content
 * (camel-case names, <script> holding elements), case and whitespace variants of attribute values, nested
 * matches, a matching root element, a frameset document without a body.
 */
const DOCUMENTS = {
  templates: `<!doctype html><html><head><title>T1</title><meta name="Description" content="d">
    <meta NAME="description" content="second"><meta property="OG:Image" content="/og.png">
    <meta name="msapplication-Square150x150logo" content="/t.png"><link REL="Icon Stylesheet" href="/i.css"></head>
    <body>
    <header class="site-header top"><nav><a href="/"><img src="/logo.svg" alt="Acme logo" class="Logo"></a></nav></header>
    <div id="Cookie-banner" class="consent"><p>We use cookies</p><button>OK</button></div>
    <template id="tpl"><div class="cookie"><p>inside <b>template</b></p><img src="/t.png"><svg><title>tsvg</title></svg>
      <header><a href="/x">x</a></header></div><a href="/about">About</a><section class="hero"><p>p</p></section></template>
    <main><section class="hero"><h1>Title</h1><p class="lead">Lead paragraph</p>
      <div><template><section><img src="/nested.png"><p>tp</p></section></template><img src="/a.png"><img src="/b.png">
        <svg class="x"><svg><path d=""/></svg><title>svg title</title><foreignObject><div>fo</div></foreignObject>
        <linearGradient id="g"></linearGradient></svg></div></section>
      <div class="logos"><img src="/1.png"><img src="/2.png"><img src="/3.png"></div>
      <article><h3>In article</h3><p>Article text</p></article><h3>Outside</h3></main>
    <footer role="contentinfo" class="footer legal">© 2024 Acme B.V.<dialog open><p>dialog</p></dialog></footer>
    <svg><script><td>odd</td></script><style>.a{}</style></svg>
    <div class="header&nbsp;x" id="Header">nbsp</div><div class="a\theader">tab</div><div class="Header">case</div>
    <div role="Dialog" aria-modal="true" class="modal-overlay">overlay</div><div class="gdprbox"><span>s</span></div>
    <p><a href="/x" Rel="NoOpener Icon" lang="EN-us" type="Text/HTML" data-Kind="Big-one" title="A-b">attrs</a>
      <a href="/y" lang="en" data-kind="big" title="a">more</a><a hreflang="de-CH" title="">empty</a></p>
    </body></html>`,
  templateTops: `<html><body><template><div class="cookie-bar"><p>top of a fragment</p><img src="/x.png"><template><i>deep</i></template></div></template>
    <div class="wrap"><template><header><a href="/">home</a><img src="/h.png"></header></template><img src="/in.png"></div>
    <section><p>plain</p></section></body></html>`,
  matchingRoot: `<html class="cookie-consent-open"><body><template><p>t</p><img src="/t.png"></template><div><p>x</p></div></body></html>`,
  frameset: `<html><head><title>F</title></head><frameset><frame src="/a.html"></frameset></html>`,
};

/** Builders next to the selectors they stand for. */
const SELECTORS: [string, ElementTest][] = [
  ['[class*="cookie" i]', attrContains('class', 'cookie', true)],
  ['[id*="cookie" i]', attrContains('id', 'cookie', true)],
  ['[class*="Logo"]', attrContains('class', 'Logo')],
  ['[class*="cookie" i], [class*="consent" i], [class*="gdpr" i], [class*="modal" i]', attrContainsAny('class', ['cookie', 'consent', 'gdpr', 'modal'], true)],
  ['[role="dialog"]', attrEquals('role', 'dialog')],
  ['[aria-modal="true"]', attrEquals('aria-modal', 'true')],
  ['[name="description" i]', attrEquals('name', 'description', true)],
  ['[property="og:image" i]', attrEquals('property', 'og:image', true)],
  ['[name^="msapplication-square" i]', attrStartsWithIgnoreCase('name', 'msapplication-square')],
  ['[rel~="stylesheet" i]', attrHasWord('rel', 'stylesheet', true)],
  ['.header', attrHasWord('class', 'header')],
  ['.header, .site-header, .navbar', attrHasAnyWord('class', ['header', 'site-header', 'navbar'])],
  ['#header', attrEquals('id', 'header')],
  ['header, nav, footer', tagIs('header', 'nav', 'footer')],
  ['lineargradient, foreignObject', tagIs('lineargradient', 'foreignobject')],
  ['main p, article p, body p', (el) => el.name === 'p' && hasAncestor(el, tagIs('main', 'article', 'body'))],
  ['main h3', (el) => el.name === 'h3' && hasAncestor(el, tagIs('main'))],
  ['header a[href]', (el) => el.name === 'a' && el.attribs['href'] !== undefined && hasAncestor(el, tagIs('header'))],
  ['header, [role="banner"], .header, #header, .site-header, .navbar, nav', anyOf(tagIs('header', 'nav'), attrEquals('role', 'banner'), attrHasAnyWord('class', ['header', 'site-header', 'navbar']), attrEquals('id', 'header'))],
];

function elements($: CheerioAPI): HtmlElement[] {
  return [...elementIndex($).all];
}

describe('element index and queries, against cheerio', () => {
  for (const [name, html] of Object.entries(DOCUMENTS)) {
    describe(name, () => {
      const { $ } = htmlPageOf(html);
      const all = elements($);

      it('lists the elements `$(selector)` scans, in document order, and per tag', () => {
        expect(all).toEqual($('*').toArray());
        for (const tag of ['p', 'img', 'svg', 'meta', 'title', 'body', 'template', 'td']) {
          expect(elementIndex($).byTag(tag)).toEqual($(tag).toArray());
        }
      });

      it('attribute and combinator tests select what the selectors select, and closest finds what closest finds', () => {
        for (const [selector, test] of SELECTORS) {
          expect(all.filter(test), selector).toEqual($(selector).toArray());
          for (const el of all) expect(closest(el, test), selector).toBe($(el).closest(selector)[0] ?? null);
        }
      });

      it('traversals and text match parents, parent, children, find and text', () => {
        for (const el of all) {
          expect(parentsOf(el)).toEqual($(el).parents().toArray());
          expect(parentOf(el)).toBe($(el).parent()[0] ?? null);
          expect(childElements(el)).toEqual($(el).children().toArray());
          expect(findIn(el, tagIs('img', 'svg'))).toEqual($(el).find('img, svg').toArray());
          expect(findIn(el, tagIs('p', 'a', 'header'))).toEqual($(el).find('p, a, header').toArray());
          expect(textOf(el)).toBe($(el).text());
        }
      });

      it('page zones hold what the find/addBack and find/filter expressions hold', () => {
        const zones = pageZones($);
        const excluded = $('[class*="cookie" i], [id*="cookie" i], [class*="consent" i], [id*="consent" i], [class*="gdpr" i], [role="dialog"], [aria-modal="true"], dialog, [class*="modal" i], [id*="onetrust" i], button');
        const header = $('header, [role="banner"], .header, #header, .site-header, .navbar, nav');
        expect(all.filter((el) => zones.isExcluded(el))).toEqual(excluded.find('*').addBack().toArray());
        expect(all.filter((el) => zones.inHeader(el))).toEqual(header.find('*').addBack().toArray());
        for (const el of all) {
          const marks = $(el).find('img, svg').filter((_, m) => $(m).parents('svg').length === 0).length;
          expect(zones.marksBelow(el)).toBe(marks);
          expect(zones.hasImageBelow(el)).toBe($(el).find('img, svg').length > 0);
        }
      });

      it('compiled simple selectors match what is() matches', () => {
        const selectors = ['div', 'DIV', 'p', '.header', '.Header', '#Header', '#header', 'header .top', 'header > nav > a', 'header>nav', 'nav  a img', 'a > img', 'svg path', 'linearGradient', 'lineargradient', 'svg > svg', 'div.logos > img', 'section.hero p', '.a.header', 'html body header', 'td', 'template p', 'template > div',
          '*', 'p > *', '*.header', 'a[href]', '[HREF]', 'a[title]', '[rel~=icon]', '[rel~="ICON"]', '[lang|=en]', '[lang|="EN"]', '[hreflang|=de]', '[type="text/html"]', '[type="TEXT/HTML"]',
          '[data-kind=big]', '[data-kind="Big-one"]', '[data-Kind^=Big]', '[data-kind^="big"]', '[data-kind$=one]', '[data-kind$="ONE"]', '[title*=-]', '[lang*=US]', '[lang$=us]', '[type^=text]', 'p [title=a]', 'img[src="/a.png"]', '[href="/x"] ~ a'].filter((s) => s !== '[href="/x"] ~ a');
        for (const selector of selectors) {
          const test = compileSimpleSelector(selector);
          expect(test, selector).not.toBeNull();
          for (const el of all) expect(test?.(el), `${selector} on <${el.name}>`).toBe($(el).is(selector));
        }
      });
    });
  }

  it('leaves selectors outside the simple grammar to cheerio', () => {
    const outside = ['', ' div', 'div ', 'a:hover', 'div\tp', '> a', 'a >', 'a + b', 'a ~ b', 'ns|a', '.a\\:b', '.é', '**', 'a*',
      '[a=b i]', '[a="b" s]', '[ a]', '[a="b c"]', '[a="é"]', '[a=""]', '[a!=b]', '[a=b/c]', '[a="x\\"y"]', '[a]b', '[ns|a]'];
    for (const selector of outside) {
      expect(compileSimpleSelector(selector), selector).toBeNull();
    }
  });
});
