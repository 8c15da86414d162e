/**
 * Payment-facilitator prefixes of card descriptors (issue 21, docs/transactions.md). Written by us from the
 * facilitators' public descriptor conventions (their help pages on "what will my customers see on their
 * statement"); not copied from any dataset. A facilitator's prefix is removed and the merchant after it is matched;
 * a marketplace that is the seller of record (Instacart, DoorDash, Eventbrite) is the merchant itself. The id of a
 * facilitator that carried the payment for another merchant is answered beside it (`x-bf-payment-processor`).
 */

export interface Processor {
  /** Stable id, e.g. `square`: the value of `x-bf-payment-processor`. */
  id: string;
  /** Matches the prefix at the start of the upper-cased descriptor (noise already removed). */
  prefix: RegExp;
  /** The facilitator's own site: an answer of that domain is the facilitator itself, not a merchant it carried. */
  domain?: string;
  /** The seller of record: the prefix alone decides the merchant. */
  seller?: { domain: string; name: string };
  /** Words matched when nothing after the prefix matches (the facilitator is a brand people know). */
  fallback?: string;
  /**
   * Also carries payments between people in the same form (`PAYPAL *JOHNSMITH`): what follows may be a person, so
   * it is answered only when it names a merchant with high confidence (transactions/payees.ts), never the
   * facilitator itself (issue 34).
   */
  p2p?: boolean;
}

export const PROCESSORS: readonly Processor[] = [
  // Cash App before Square: card-funded payments print "CASH APP*<NAME>*<ref>", older ones "SQC*<NAME>" or
  // "SQC*CASH APP*<NAME>" (Square Cash); a person or a Cash App business alike.
  { id: 'cashapp', prefix: /^(?:SQC\s*\*\s*(?:CASH\s*APP\s*\*?\s*)?|(?:SQ\s*\*\s*)?CASH\s*APP\s*\*\s*)/, domain: 'cash.app', p2p: true },
  // Square: "SQ *<BUSINESS NAME>" (Square support: "how your business name appears on statements"); GOSQ.COM online.
  { id: 'square', prefix: /^(?:SQ|SQU|SQUARE|GOSQ\.COM)\s*\*\s*/, domain: 'squareup.com' },
  // Toast: "TST* <RESTAURANT>".
  { id: 'toast', prefix: /^TST\s*\*\s*/, domain: 'toasttab.com' },
  // PayPal checkouts: "PAYPAL *<MERCHANT>"; a card-funded payment to a person prints the same form with the person's
  // name ("PAYPAL *JOHNSMITH"); PayPal's own charges and bank transfers print "PAYPAL" without a star (a transfer).
  { id: 'paypal', prefix: /^(?:PAYPAL|PP)\s*\*\s*/, domain: 'paypal.com', p2p: true },
  // Venmo: card-funded payments print "VENMO *<NAME>", to a person or to a business profile alike; bank-funded ones
  // "VENMO PAYMENT <ref>" (a transfer).
  { id: 'venmo', prefix: /^VENMO\s*\*\s*/, domain: 'venmo.com', p2p: true },
  // Satispay (Italy): payments to shops and to people; a star form like PayPal's is read the same way, any other
  // Satispay line (top-ups) is a transfer.
  { id: 'satispay', prefix: /^SATISPAY\s*\*\s*/, domain: 'satispay.com', p2p: true },
  // Google Play, Google One, YouTube: "GOOGLE *<PRODUCT OR DEVELOPER>". Google Pay's transfers between people print
  // "GOOGLE PAY SEND ..." (a transfer, transactions/non-merchant-lines.ts), never this form.
  { id: 'google', prefix: /^GOOGLE\s*\*\s*/, domain: 'google.com', fallback: 'google' },
  // Shopify Payments: "SP * <STORE>" or "SP <STORE>".
  { id: 'shopify', prefix: /^SP\s*\*\s*|^SP\s+(?=[A-Z0-9])/, domain: 'shopify.com' },
  // SumUp card readers: "SUMUP *<MERCHANT>"; Zettle (iZettle): "IZ *<MERCHANT>" or "ZETTLE_*<MERCHANT>".
  { id: 'sumup', prefix: /^SUMUP\s*\*\s*/, domain: 'sumup.com' },
  { id: 'zettle', prefix: /^(?:IZ|ZETTLE_?)\s*\*\s*/, domain: 'zettle.com' },
  // "PY *<MERCHANT>": a facilitator prefix named in issue 21; which facilitator prints it is not recorded here.
  { id: 'py', prefix: /^PY\s*\*\s*/ },
  // Paddle and FastSpring (software resellers) and Checkout.com: "PADDLE.NET* <PRODUCT>", "FS *<PRODUCT>", "CKO*<MERCHANT>".
  { id: 'paddle', prefix: /^PADDLE\.NET\s*\*\s*/, domain: 'paddle.com' },
  { id: 'fastspring', prefix: /^FS\s*\*\s*/, domain: 'fastspring.com' },
  { id: 'checkout', prefix: /^CKO\s*\*\s*/, domain: 'checkout.com' },
  // WePay: "WPY*<MERCHANT>".
  { id: 'wepay', prefix: /^WPY\s*\*\s*/, domain: 'wepay.com' },
  // Sellers of record: the marketplace charges the card, whatever the store or event named after the star.
  { id: 'instacart', prefix: /^IC\s*\*\s*/, seller: { domain: 'instacart.com', name: 'Instacart' } },
  { id: 'doordash', prefix: /^DD\s*\*\s*/, seller: { domain: 'doordash.com', name: 'DoorDash' } },
  { id: 'eventbrite', prefix: /^EB\s*\*\s*/, seller: { domain: 'eventbrite.com', name: 'Eventbrite' } },
];
