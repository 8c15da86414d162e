import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { BatchItem, BatchOutcome } from '../../brands/batch-lookup.js';
import { echoIdentifier } from '../../brands/batch-lookup.js';
import type { Principal } from '../../billing/authenticator.js';
import type { AppDeps } from '../app-deps.js';
import { authorize, setUsageHeaders } from '../credentials.js';
import { ErrorBody } from '../schemas/route-schemas.js';

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
  },
  { additionalProperties: false },
);

const BatchQuotaBody = Type.Object(
  { message: Type.String(), quota: Type.Integer(), used: Type.Integer(), remaining: Type.Integer(), required: Type.Integer() },
  { additionalProperties: true, description: 'fewer credits left than the request could use, or throughput limit (then message only)' },
);

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by hooks that authenticate before validation (batch). */
    principal?: Principal;
  }
}

const TOO_LARGE = { code: 'response_too_large', message: 'The brand did not fit in this response; request it again in a smaller batch.' };

interface Serialized {
  json: string;
  charged: Set<string>;
}

/** Builds the response as a string: brands are cached serialized, so 100 of them are concatenated, not re-encoded. */
function serialize(items: BatchItem[], outcomes: BatchOutcome[], palette: boolean, maxBytes: number): Serialized {
  const charged = new Set<string>();
  const parts: string[] = [];
  let bytes = 14;
  for (const [i, outcome] of outcomes.entries()) {
    const identifier = echoIdentifier(items[i] as BatchItem);
    let part: string;
    if (outcome.status === 200) {
      const brand = palette ? `${outcome.brand.json.slice(0, -1)},"palette":null}` : outcome.brand.json;
      part = `{"identifier":${JSON.stringify(identifier)},"status":200,"brand":${brand}}`;
      if (bytes + Buffer.byteLength(part) > maxBytes) part = JSON.stringify({ identifier, status: 413, ...TOO_LARGE });
      else if (!outcome.free) charged.add(outcome.brand.stored.brand.id);
    } else {
      const { status, ...rest } = outcome;
      part = JSON.stringify({ identifier, status, ...rest });
    }
    bytes += Buffer.byteLength(part) + 1;
    parts.push(part);
  }
  return { json: `{"results":[${parts.join(',')}]}`, charged };
}

/** Credits the batch could use: one per distinct brand it would return (duplicates are charged once). */
function chargeable(outcomes: BatchOutcome[]): number {
  const brands = new Set<string>();
  for (const outcome of outcomes) if (outcome.status === 200 && !outcome.free) brands.add(outcome.brand.stored.brand.id);
  return brands.size;
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
      },
      // Authentication comes before body validation: a request without a valid key is refused as such.
      preValidation: async (request) => {
        request.principal = await authorize(deps, request, { answer: 'unauthorized' }, 'batch');
      },
    },
    async (request, reply) => {
      const principal = request.principal;
      if (!principal) throw new Error('batch handler ran without a principal');
      const body = request.body as BatchBodyType;
      const items = body.identifiers as BatchItem[];
      const outcomes = await deps.batch.resolve(items, { cachedOnly: body.cachedOnly === true, allowNsfw: body.allowNsfw, itemTimeoutMs: deps.batchItemTimeoutMs });
      const required = chargeable(outcomes);
      const hold = required > 0 ? await deps.billing.reserve(principal, required, 'batch') : null;
      const { json, charged } = serialize(items, outcomes, body.palette === true, deps.batchResponseMaxBytes);
      hold?.settle(charged.size, 'brand.batch');
      await setUsageHeaders(deps, reply, principal);
      return reply.code(200).type('application/json; charset=utf-8').send(json);
    },
  );
}
