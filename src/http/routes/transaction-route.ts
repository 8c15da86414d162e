/**
 * POST /v2/brands/transaction (spec 4.6, 5.2, 7.2; docs/transactions.md): a card descriptor and its country to the
 * merchant's full Brand. The body is checked before the credential, so an incomplete body answers 400 whatever the
 * credential (spec 7.2); unknown properties are ignored (the spec leaves the other request fields open). Billed like
 * a lookup: one credit or one pay-per-request payment, only when a brand is returned.
 */
import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { ApiError } from '../../domain/errors.js';
import { enrichTransaction, type TransactionRequest } from '../../usecases/enrich-transaction.js';
import type { AppDeps } from '../app-deps.js';
import { payerOf, setChargeHeaders } from '../credentials.js';
import { USAGE_HEADERS, type ResponseHeaderName } from '../schemas/response-headers.js';
import { ErrorBody, PaymentRequiredBody } from '../schemas/route-schemas.js';

export const TransactionBody = Type.Object(
  {
    transactionLabel: Type.String({ minLength: 1, maxLength: 256, description: 'The raw card descriptor as the statement prints it, e.g. `SQ *BLUE BOTTLE COF 4`.' }),
    countryCode: Type.String({ pattern: '^[A-Za-z]{2}$', description: 'ISO 3166 alpha-2 country of the card transaction (weighs merchants trading there).' }),
    mcc: Type.Optional(
      Type.Union([Type.String({ pattern: '^[0-9]{4}$' }), Type.Integer({ minimum: 0, maximum: 9999 })], { description: 'ISO 18245 merchant category code (four digits).' }),
    ),
    city: Type.Optional(Type.String({ maxLength: 100, description: 'City of the transaction when known; dropped from the descriptor before matching.' })),
  },
  { additionalProperties: true },
);
type TransactionBodyType = Static<typeof TransactionBody>;

const ROUTE = '/v2/brands/transaction';
const CREDENTIAL_ROUTE = { method: 'POST', template: ROUTE, missing: 'payment' } as const;

const MATCH_HEADERS = ['x-bf-match-confidence', 'x-bf-matched-alias', 'x-bf-match-source', 'x-bf-payment-processor'] as const satisfies readonly ResponseHeaderName[];

const TRANSACTION_HEADERS = {
  200: [...USAGE_HEADERS, ...MATCH_HEADERS, 'payment-response', 'payment-receipt', 'cache-control'],
  402: ['payment-required', 'www-authenticate', 'payment-response', 'cache-control'],
  503: ['retry-after'],
} as const satisfies Record<number, readonly ResponseHeaderName[]>;

/** The body as the use case takes it: label trimmed, country upper-cased, MCC as four digits. */
function readBody(body: TransactionBodyType): TransactionRequest {
  const transactionLabel = body.transactionLabel.trim();
  if (transactionLabel === '') throw new ApiError('invalid_transaction');
  const mcc = body.mcc === undefined ? undefined : String(body.mcc).padStart(4, '0');
  const city = body.city?.trim() || undefined;
  return { transactionLabel, countryCode: body.countryCode.toUpperCase(), mcc, city };
}

/** Header values are ASCII: anything else in a name is percent-encoded. */
function headerSafe(value: string): string {
  return value.replace(/[^\x20-\x7e]/g, (c) => encodeURIComponent(c));
}

export function registerTransactionRoute(app: FastifyInstance, deps: AppDeps): void {
  app.post(
    ROUTE,
    {
      schema: {
        summary: 'The merchant behind a card descriptor, as a full Brand',
        tags: ['brands'],
        body: TransactionBody,
        response: { 200: Type.Ref('Brand'), 400: ErrorBody, 401: ErrorBody, 402: PaymentRequiredBody, 403: ErrorBody, 429: ErrorBody, 503: ErrorBody },
        responseHeaders: TRANSACTION_HEADERS,
      },
      // Validation errors reach the handler, which answers them before reading the credential (spec 7.2).
      attachValidation: true,
      config: { billable: true },
    },
    async (request, reply) => {
      if (request.validationError) throw new ApiError('invalid_transaction');
      const input = readBody(request.body as TransactionBodyType);
      const payer = await payerOf(deps, request, CREDENTIAL_ROUTE, 'lookup');
      const answered = await enrichTransaction(deps.usecases, payer, input);
      const value = answered.value;
      request.resolvedDomain = value.match.domain;
      setChargeHeaders(reply, answered);
      reply.header('x-bf-match-confidence', value.match.confidence.toFixed(2));
      reply.header('x-bf-matched-alias', headerSafe(value.match.alias));
      reply.header('x-bf-match-source', value.match.source);
      if (value.match.processor) reply.header('x-bf-payment-processor', value.match.processor);
      return reply.code(200).type('application/json; charset=utf-8').send(value.record);
    },
  );
}
