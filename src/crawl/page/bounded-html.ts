/**
 * HTML parsing with bounds a hostile page cannot get past (issue 13): parse5, the HTML standard's tree builder that
 * cheerio uses, does work proportional to the depth of its stack of open elements for most tags, and to the
 * attributes already read for each new attribute of a tag. Tens of thousands of nested elements or attributes
 * (a few hundred KB) stalled a crawl for seconds, a 2 MB page for minutes. So, as browsers and sanitizers do:
 *   - depth: at most `maxDepth` elements open at once (Chromium stops nesting at 512 too);
 *   - elements: at most `maxElements` elements created, including those the parser adds on its own (implied
 *     <html>/<head>/<body>, re-opened formatting elements: 1,000 `<div><b id=n></div>` make 500,000 of those), and
 *     at most twice as many start and end tags read (a stray end tag costs a walk of the open elements);
 *   - attributes: at most `maxAttributes` per tag; further ones are dropped the way duplicate attributes are.
 * Past the depth or element bound the parse stops where it is: the document keeps everything built so far, a
 * partial page rather than a failed crawl. The bounds are checked in the tree adapter (public parse5 API) and in
 * the tokenizer (a subclass of parse5's, for the two counts only it sees), so they are exact, whatever tokenizer
 * state (raw text, foreign content, tables) the page puts the parser in.
 */
import { Parser, Tokenizer, type Token, type TreeAdapter } from 'parse5';
import { adapter as htmlparser2Adapter, type Htmlparser2TreeAdapterMap } from 'parse5-htmlparser2-tree-adapter';

export interface HtmlLimits {
  /** Elements open at once (the parser's stack of open elements; <html> and <body> count). */
  maxDepth: number;
  /** Elements created (start and end tags read: twice this). */
  maxElements: number;
  /** Attributes kept per tag. */
  maxAttributes: number;
  /** Bytes of a page that are parsed (the rest is ignored: brand evidence sits in <head> and the header). */
  maxBytes: number;
  /** Bytes of a home page that are downloaded; a larger page fails the crawl as `too_large`. */
  maxDownloadBytes: number;
}

/**
 * Far beyond real pages: the saved real pages of the evaluation corpora (66 news, shop and brand home pages up to
 * 1.3 MB) nest at most 38 deep, hold at most 13,075 elements and at most 70 attributes on one tag.
 */
export const DEFAULT_HTML_LIMITS: Readonly<HtmlLimits> = Object.freeze({
  maxDepth: 512,
  maxElements: 50_000,
  maxAttributes: 256,
  maxBytes: 2 * 1024 * 1024,
  maxDownloadBytes: 5 * 1024 * 1024,
});

/** Which bound stopped the parse. */
export type HtmlBound = 'depth' | 'elements' | 'tags';

type Document = Htmlparser2TreeAdapterMap['document'];
type Element = Htmlparser2TreeAdapterMap['element'];

export interface BoundedHtml {
  document: Document;
  /** The bound that stopped the parse (the document holds what was built before it), or null: parsed whole. */
  truncatedBy: HtmlBound | null;
  /** Elements created. */
  elements: number;
  /** Attributes dropped past `maxAttributes`. */
  droppedAttributes: number;
}

/** Thrown inside parse5 to stop it; never leaves this module. */
class BoundReached extends Error {
  constructor(readonly bound: HtmlBound) {
    super(`HTML ${bound} bound reached`);
  }
}

/** Parses `html` as a document, exactly as cheerio's `load` does (scripting on, htmlparser2 nodes), within `limits`. */
export function parseBoundedHtml(html: string, limits: Readonly<HtmlLimits> = DEFAULT_HTML_LIMITS): BoundedHtml {
  const counts = { elements: 0, depth: 0 };
  const treeAdapter: TreeAdapter<Htmlparser2TreeAdapterMap> = {
    ...htmlparser2Adapter,
    createElement(tagName, namespaceURI, attrs) {
      if (++counts.elements > limits.maxElements) {
        counts.elements -= 1;
        throw new BoundReached('elements');
      }
      return htmlparser2Adapter.createElement(tagName, namespaceURI, attrs);
    },
    onItemPush(element: Element) {
      if (++counts.depth > limits.maxDepth) {
        // Already attached by the parser: the element past the bound is not kept.
        htmlparser2Adapter.detachNode(element);
        throw new BoundReached('depth');
      }
    },
    onItemPop() {
      counts.depth -= 1;
    },
  };
  const parser = new Parser<Htmlparser2TreeAdapterMap>({ treeAdapter, scriptingEnabled: true });
  const tokenizer = new BoundedTokenizer(parser, 2 * limits.maxElements, limits.maxAttributes);
  parser.tokenizer = tokenizer;
  let truncatedBy: HtmlBound | null = null;
  try {
    tokenizer.write(html, true);
  } catch (error) {
    if (!(error instanceof BoundReached)) throw error;
    truncatedBy = error.bound;
  }
  return { document: parser.document, truncatedBy, elements: counts.elements, droppedAttributes: tokenizer.droppedAttributes };
}

/** parse5's tokenizer, counting tags and refusing attributes past the bound before its per-attribute duplicate scan. */
class BoundedTokenizer extends Tokenizer {
  droppedAttributes = 0;
  private tags = 0;

  constructor(
    parser: Parser<Htmlparser2TreeAdapterMap>,
    private readonly maxTags: number,
    private readonly maxAttributes: number,
  ) {
    super(parser.options, parser);
  }

  protected override _leaveAttrName(): void {
    if ((this.currentToken as Token.TagToken).attrs.length >= this.maxAttributes) {
      this.droppedAttributes += 1;
      return;
    }
    super._leaveAttrName();
  }

  protected override emitCurrentTagToken(): void {
    if (++this.tags > this.maxTags) throw new BoundReached('tags');
    super.emitCurrentTagToken();
  }
}
