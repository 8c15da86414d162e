import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { batchBrands, type BatchItem } from '../../usecases/batch-brands.js';
import type { Payer } from '../../usecases/payer.js';
import type { AppDeps } from '../app-deps.js';
import { payerOf, setUsageHeaders } from '../credentials.js';
import { USAGE_HEADERS } from '../schemas/response-headers.js';
import { CrawlFailureReasonSchema, ErrorBody } from '../schemas/route-schemas.js';

/**
 * POST /v2/brands/batch (spec 4.3, 2.10). The body is validated strictly by this schema (any violation is a
 * whole-request 400, nothing charged); item lengths are checked per item so one bad identifier answers its own
 * 400 instead of sinking the batch.
 */
export const BatchBody = Type.Object(
  {
    identifiers: Type.Array(
      Type.Union([
        Type.String(),
        Type.Object(
          { type: Type.Union(['domain', 'ticker', 'isin', 'crypto', 'brandId'].map((t) => Type.Literal(t))), value: Type.String() },
          { additionalProperties: false },
        ),
      ]),
      { minItems: 1, maxItems: 100 },
    ),
    cachedOnly: Type.Optional(Type.Boolean({ default: false })),
    allowNsfw: Type.Optional(Type.Boolean()),
    palette: Type.Optional(Type.Boolean({ default: false })),
  },
  { additionalProperties: false },
);
type BatchBodyType = Static<typeof BatchBody>;

const BatchResultItem = Type.Object(
  {
    identifier: Type.Union([Type.String(), Type.Object({ type: Type.String(), value: Type.String() })]),
    status: Type.Union([200, 202, 204, 400, 404, 413, 500, 504].map((s) => Type.Literal(s))),
    brand: Type.Optional(Type.Ref('Brand')),
    code: Type.Optional(Type.Union(['crawl_queued', 'response_too_large', 'timeout'].map((c) => Type.Literal(c)))),
    message: Type.Optional(Type.String()),
    /** On a 404 item whose domain's crawl failed within the failure memory (docs/spec-decisions.md). */
    reason: Type.Optional(CrawlFailureReasonSchema),
  },
  { additionalProperties: false },
);

const BatchQuotaBody = Type.Object(
  { message: Type.String(), quota: Type.Integer(), used: Type.Integer(), remaining: Type.Integer(), required: Type.Integer() },
  { additionalProperties: true, description: 'fewer credits left than the request could use, or throughput limit (then message only)' },
);

/** No key sent answers 401 (spec 7.1: "no key sent (batch)"), so a batch takes no payment. */
const BATCH_ROUTE = { method: 'POST', template: '/v2/brands/batch', missing: 'unauthorized' } as const;

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by hooks that authenticate before validation (batch). */
    payer?: Payer;
  }
}

export function registerBatchRoute(app: FastifyInstance, deps: AppDeps): void {
  app.post(
    '/v2/brands/batch',
    {
      schema: {
        summary: 'Batch lookup of 1 to 100 identifiers (machine description version 1.0.0)',
        tags: ['brands'],
        body: BatchBody,
        response: {
          200: Type.Object({ results: Type.Array(BatchResultItem) }),
          400: ErrorBody,
          401: ErrorBody,
          403: ErrorBody,
          429: BatchQuotaBody,
        },
        responseHeaders: { 200: USAGE_HEADERS },
      },
      config: { billable: true },
      // Authentication comes before body validation: a request without a valid key is refused as such.
      preValidation: async (request) => {
        request.payer = await payerOf(deps, request, BATCH_ROUTE, 'batch');
      },
    },
    async (request, reply) => {
      const payer = request.payer;
      if (!payer) throw new Error('batch handler ran without a payer');
      const body = request.body as BatchBodyType;
      const batch = { items: body.identifiers as BatchItem[], cachedOnly: body.cachedOnly === true, allowNsfw: body.allowNsfw, palette: body.palette === true, requestId: request.id };
      const { value, usage } = await batchBrands(deps.usecases, payer, batch);
      setUsageHeaders(reply, usage);
      return reply.code(200).type('application/json; charset=utf-8').send(value.json);
    },
  );
}
