import { CREDITS_PER_USD } from '../billing/billing.js';
import { docUrl } from './doc-urls.js';

/** Prepaid credits one US dollar buys through standing access (spec 5.3, section 8): billing's one constant. */
export { CREDITS_PER_USD };

/**
 * Bodies the spec prescribes for payment-related answers (7.1): the 402 challenge body for requests without a
 * credential, and the `payment` object every 404 carries. Pay-per-request itself (x402 / MPP headers) comes with
 * a later issue; these bodies already have their final shape.
 */

export const PRICE_PER_REQUEST_USD = '0.10';

/** What the 402 and the viewer's 401 say of the offer at /v2/agents/access; the offer itself says what is accepted. */
export const STANDING_ACCESS_SUMMARY = `Buy an API key preloaded with prepaid credits (${CREDITS_PER_USD} credits per US dollar); the offer says which payment methods this server accepts.`;

export function paymentRequiredBody(publicUrl: string, route: string): Record<string, unknown> {
  return {
    documentation: docUrl(publicUrl, 'payments'),
    pricing: { route, price: `$${PRICE_PER_REQUEST_USD}` },
    // The route template, never the requested identifier: it may be a website URL or an email address.
    resource: `${publicUrl}${route}`,
    standingAccess: {
      offer: `${publicUrl}/v2/agents/access`,
      description: STANDING_ACCESS_SUMMARY,
    },
  };
}

/** The viewer's 401 without a credential: where to buy a key instead (spec 7.1, `agentAccess`). */
export function agentAccessBody(publicUrl: string): Record<string, unknown> {
  return {
    offer: `${publicUrl}/v2/agents/access`,
    description: `No API key? ${STANDING_ACCESS_SUMMARY}`,
    documentation: docUrl(publicUrl, 'standingAccess'),
  };
}

export function notFoundPayment(publicUrl: string): Record<string, unknown> {
  return {
    payment: {
      charged: false,
      documentation: docUrl(publicUrl, 'charges'),
      message: 'This request was not charged.',
    },
  };
}
