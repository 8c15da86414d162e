/**
 * Payment-facilitator prefixes of card descriptors (issue 21, docs/transactions.md). Written by us from the
 * facilitators' public descriptor conventions (their help pages on "what will my customers see on their
 * statement"); not copied from any dataset. A facilitator's prefix is removed and the merchant after it is matched;
 * a marketplace that is the seller of record (Instacart, DoorDash, Eventbrite) is the merchant itself.
 */

export interface Processor {
  /** Stable id, e.g. `square`. */
  id: string;
  /** Matches the prefix at the start of the upper-cased descriptor (noise already removed). */
  prefix: RegExp;
  /** The seller of record: the prefix alone decides the merchant. */
  seller?: { domain: string; name: string };
  /** Words matched when nothing after the prefix matches (the facilitator is a brand people know). */
  fallback?: string;
}

export const PROCESSORS: readonly Processor[] = [
  // Square: "SQ *<BUSINESS NAME>" (Square support: "how your business name appears on statements"); GOSQ.COM online.
  { id: 'square', prefix: /^(?:SQ|SQU|SQUARE|GOSQ\.COM)\s*\*\s*/ },
  // Toast: "TST* <RESTAURANT>".
  { id: 'toast', prefix: /^TST\s*\*\s*/ },
  // PayPal checkouts: "PAYPAL *<MERCHANT>"; PayPal's own charges print "PAYPAL" without a star (alias table).
  { id: 'paypal', prefix: /^(?:PAYPAL|PP)\s*\*\s*/, fallback: 'paypal' },
  // Google Play, Google One, YouTube: "GOOGLE *<PRODUCT OR DEVELOPER>".
  { id: 'google', prefix: /^GOOGLE\s*\*\s*/, fallback: 'google' },
  // Shopify Payments: "SP * <STORE>" or "SP <STORE>".
  { id: 'shopify', prefix: /^SP\s*\*\s*|^SP\s+(?=[A-Z0-9])/ },
  // SumUp card readers: "SUMUP *<MERCHANT>"; Zettle (iZettle): "IZ *<MERCHANT>" or "ZETTLE_*<MERCHANT>".
  { id: 'sumup', prefix: /^SUMUP\s*\*\s*/ },
  { id: 'zettle', prefix: /^(?:IZ|ZETTLE_?)\s*\*\s*/ },
  // "PY *<MERCHANT>": a facilitator prefix named in issue 21; which facilitator prints it is not recorded here.
  { id: 'py', prefix: /^PY\s*\*\s*/ },
  // Paddle and FastSpring (software resellers) and Checkout.com: "PADDLE.NET* <PRODUCT>", "FS *<PRODUCT>", "CKO*<MERCHANT>".
  { id: 'paddle', prefix: /^PADDLE\.NET\s*\*\s*/ },
  { id: 'fastspring', prefix: /^FS\s*\*\s*/ },
  { id: 'checkout', prefix: /^CKO\s*\*\s*/ },
  // WePay: "WPY*<MERCHANT>".
  { id: 'wepay', prefix: /^WPY\s*\*\s*/ },
  // Sellers of record: the marketplace charges the card, whatever the store or event named after the star.
  { id: 'instacart', prefix: /^IC\s*\*\s*/, seller: { domain: 'instacart.com', name: 'Instacart' } },
  { id: 'doordash', prefix: /^DD\s*\*\s*/, seller: { domain: 'doordash.com', name: 'DoorDash' } },
  { id: 'eventbrite', prefix: /^EB\s*\*\s*/, seller: { domain: 'eventbrite.com', name: 'Eventbrite' } },
];
