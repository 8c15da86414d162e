import { Type, type TSchema } from '@sinclair/typebox';

/**
 * Params and response schemas shared by the routes. Error bodies allow extra properties on purpose: the 404
 * carries `payment`, the 402 its payment fields, the batch 429 its counters (spec 7.1); a closed schema would
 * make the serializer drop them.
 */
export const ErrorBody = Type.Object({ message: Type.String() }, { additionalProperties: true, description: 'error body (docs/errors.md)' });

export const NotFoundBody = Type.Object(
  {
    message: Type.String(),
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
  },
  { additionalProperties: false },
);

export function typedParams(type: string): TSchema {
  return Type.Object({ identifier: Type.String({ description: `the ${type}` }) });
}

export function wildcardParams(): TSchema {
  return Type.Object({ '*': Type.String({ description: 'domain, website URL, email address, brand ID, ticker, ISIN or crypto symbol' }) });
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
