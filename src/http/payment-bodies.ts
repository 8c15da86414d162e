/**
 * Bodies the spec prescribes for payment-related answers (7.1): the 402 challenge body for requests without a
 * credential, and the `payment` object every 404 carries. Pay-per-request itself (x402 / MPP headers) comes with
 * a later issue; these bodies already have their final shape.
 */

export const PRICE_PER_REQUEST_USD = '0.10';

export function paymentRequiredBody(publicUrl: string, route: string): Record<string, unknown> {
  return {
    documentation: `${publicUrl}/docs#payments`,
    pricing: { route, price: `$${PRICE_PER_REQUEST_USD}` },
    // The route template, never the requested identifier: it may be a website URL or an email address.
    resource: `${publicUrl}${route}`,
    standingAccess: {
      offer: `${publicUrl}/v2/agents/access`,
      description: 'Buy an API key preloaded with prepaid credits (20 credits per US dollar).',
    },
  };
}

export function notFoundPayment(publicUrl: string): Record<string, unknown> {
  return {
    payment: {
      charged: false,
      documentation: `${publicUrl}/docs#billing`,
      message: 'This request was not charged.',
    },
  };
}
