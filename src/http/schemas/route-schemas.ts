import { Type, type TSchema } from '@sinclair/typebox';
import { CRAWL_FAILURES } from '../../domain/crawl-failures.js';

/**
 * Params and response schemas shared by the routes. Error bodies allow extra properties on purpose: the 404
 * carries `payment`, the 402 its payment fields, the batch 429 its counters (spec 7.1); a closed schema would
 * make the serializer drop them.
 */
export const ErrorBody = Type.Object({ message: Type.String() }, { additionalProperties: true, description: 'error body: `message`, and the fields the error codes page lists for the status' });

/** Why a crawl ended without a brand (src/domain/crawl-failures.ts; docs/errors.md, "Crawl failures"). */
export const CrawlFailureReasonSchema = Type.Union(
  Object.keys(CRAWL_FAILURES).map((reason) => Type.Literal(reason)),
  { description: 'why the crawl of the domain failed; new values may be added' },
);

export const NotFoundBody = Type.Object(
  {
    message: Type.String(),
    /** Only on a 404 caused by a failed crawl (now, or remembered); absent for a removed, unmatched or filtered brand. */
    reason: Type.Optional(CrawlFailureReasonSchema),
    payment: Type.Object({ charged: Type.Boolean(), documentation: Type.String(), message: Type.String() }, { additionalProperties: false }),
  },
  { additionalProperties: false },
);

export const PaymentRequiredBody = Type.Object(
  {
    message: Type.String(),
    documentation: Type.String(),
    pricing: Type.Object({ route: Type.String(), price: Type.String() }, { additionalProperties: false }),
    resource: Type.String(),
    standingAccess: Type.Object({}, { additionalProperties: true }),
    reason: Type.Optional(Type.String({ description: 'why a presented payment was refused (the x402 reason, also in PAYMENT-REQUIRED `error`)' })),
  },
  { additionalProperties: false },
);

export function typedParams(type: string): TSchema {
  return Type.Object({ identifier: Type.String({ description: `the ${type}` }) });
}

export function wildcardParams(): TSchema {
  return Type.Object({ '*': Type.String({ description: 'domain, website URL, email address, brand ID, ticker, ISIN or crypto symbol' }) });
}

/** The answers shared by every HEAD route, which never have a body (spec 4.2, 7.1). */
const HEAD_REFUSALS = {
  400: 'not a valid identifier (the same 400 as the GET)',
  401: 'malformed Authorization header',
  402: 'no credential',
  403: 'key unknown or revoked, or no paid plan or prepaid credits (HEAD is for paid plans)',
  429: 'throughput or prefetch limit exceeded',
} as const;

/** HEAD prefetch (spec 4.2): `queues` when the route can queue a crawl (a domain or an email address's domain). */
export function headResponses(queues: boolean): Record<number, string> {
  const held = { 200: 'the brand is held; a GET is answered from the store', 404: 'nothing can be fetched for the identifier, including a removed brand' };
  if (!queues) return { ...held, ...HEAD_REFUSALS };
  return { ...held, 202: 'not held, crawl queued', ...HEAD_REFUSALS, 503: 'the crawl could not be queued; retry later' };
}

/** HEAD on a read-only sub-resource: whether the GET would answer it, never a crawl, never a credit. */
export function availabilityResponses(): Record<number, string> {
  return { 200: 'the brand is held; the GET answers it', 404: 'the brand is not held (the GET answers 404; nothing is crawled or queued)', ...HEAD_REFUSALS };
}

/** Responses of a brand lookup (spec 4.1 and 7.1). */
export function brandResponses(): Record<number, TSchema> {
  return {
    200: Type.Ref('Brand'),
    204: Type.Null({ description: 'cachedOnly and not indexed; no body' }),
    400: ErrorBody,
    401: ErrorBody,
    402: PaymentRequiredBody,
    403: ErrorBody,
    404: NotFoundBody,
    429: ErrorBody,
  };
}
