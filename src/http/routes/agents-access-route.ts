import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { ApiError } from '../../domain/errors.js';
import type { AppDeps } from '../app-deps.js';
import { docUrl } from '../doc-urls.js';
import { CREDITS_PER_USD } from '../payment-bodies.js';
import { ErrorBody } from '../schemas/route-schemas.js';

const AccessOffer = Type.Object(
  {
    offer: Type.Literal('standing-access'),
    description: Type.String(),
    creditsPerUsd: Type.Integer({ description: 'prepaid credits per US dollar' }),
    purchase: Type.Object(
      {
        method: Type.Literal('POST'),
        url: Type.String(),
        query: Type.Object({ usd: Type.String() }, { additionalProperties: false }),
      },
      { additionalProperties: false, description: 'how the offer is bought, once payments are configured' },
    ),
    paymentMethods: Type.Array(Type.Object({ protocol: Type.String() }, { additionalProperties: true }), {
      description: 'the payment methods this server accepts (x402, MPP); empty while payments are not configured',
    }),
    purchasable: Type.Boolean({ description: 'whether the offer can be bought from this server now' }),
    message: Type.String(),
    documentation: Type.String(),
  },
  { additionalProperties: false },
);

/**
 * The standing-access offer (spec 4.6, 5.3): GET describes it, POST sells it. Payments (x402, MPP) are not built
 * yet, so no payment method is accepted: the offer says so, and the POST answers 501 `payments_not_configured`
 * (docs/spec-decisions.md). Both are free and need no credential: they are for clients that have none.
 */
export function registerAgentsAccessRoutes(app: FastifyInstance, deps: AppDeps): void {
  app.get(
    '/v2/agents/access',
    { schema: { summary: 'The standing-access offer: an API key preloaded with prepaid credits', tags: ['agents'], security: [], response: { 200: AccessOffer } }, exposeHeadRoute: true },
    async (_request, reply) =>
      reply.send({
        offer: 'standing-access',
        description: 'An API key of a new organization, preloaded with prepaid credits bought in US dollars. Prepaid credits do not expire; a brand returned costs one credit.',
        creditsPerUsd: CREDITS_PER_USD,
        purchase: { method: 'POST', url: `${deps.publicUrl}/v2/agents/access`, query: { usd: 'US dollars to spend' } },
        paymentMethods: [],
        purchasable: false,
        // Pay per request (x402, MPP) is built; selling keys for a payment is not yet (docs/payments.md).
        message: 'Standing access cannot be bought from this server yet. Ask the operator of this server for an API key, or pay per request where the server accepts it (a 402 carries the payment challenges).',
        documentation: docUrl(deps.publicUrl, 'standingAccess'),
      }),
  );

  app.post(
    '/v2/agents/access',
    { schema: { summary: 'Buy standing access (not available: payments are not configured)', tags: ['agents'], security: [], response: { 501: ErrorBody } } },
    async () => {
      throw new ApiError('payments_not_configured', undefined, { documentation: docUrl(deps.publicUrl, 'standingAccess') });
    },
  );
}
