import { Type } from '@sinclair/typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ACCESS_MAX_USD, ACCESS_MIN_USD, ACCESS_RETRY_WINDOW_MS, ACCESS_ROUTE, parseAccessUsd } from '../../domain/access-purchases.js';
import { ApiError } from '../../domain/errors.js';
import type { AccessPayment } from '../../payments/access-sales.js';
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
      { additionalProperties: false, description: 'how the offer is bought' },
    ),
    usd: Type.Object({ min: Type.Integer(), max: Type.Integer() }, { additionalProperties: false, description: 'whole US dollars one payment may buy' }),
    retryWindowSeconds: Type.Integer({ description: 'how long after the payment a retry of the exact request that was answered with an error may receive the key' }),
    paymentMethods: Type.Array(Type.Object({ protocol: Type.String() }, { additionalProperties: true }), {
      description: 'the payment methods this server accepts (x402, MPP); empty while payments are off',
    }),
    purchasable: Type.Boolean({ description: 'whether the offer can be bought from this server now' }),
    message: Type.String(),
    documentation: Type.String(),
  },
  { additionalProperties: false },
);

/** The 200 of a purchase (docs/payments.md, "Standing access"). `apiKey` and `mcpToken` only on a new key. */
const AccessPurchased = Type.Object(
  {
    apiKey: Type.Optional(Type.String({ description: 'the API key, shown once' })),
    mcpToken: Type.Optional(Type.String({ description: 'the MCP token, shown once' })),
    topUp: Type.Boolean({ description: 'true when the payment added credits to the organization this wallet bought before (no new key or token)' }),
    key: Type.Object({ id: Type.String(), urn: Type.String() }, { additionalProperties: false }),
    organization: Type.Object({ id: Type.String(), urn: Type.String() }, { additionalProperties: false }),
    usd: Type.Integer(),
    credits: Type.Object({ added: Type.Integer(), balance: Type.Union([Type.Integer(), Type.Null()]), perUsd: Type.Integer() }, { additionalProperties: false }),
    agent: Type.Object({ payer: Type.String() }, { additionalProperties: true }),
    message: Type.String(),
    viewer: Type.String(),
  },
  { additionalProperties: false },
);

/** The payment the request presents: x402 (`PAYMENT-SIGNATURE`) or MPP (`Authorization: Payment …`), or none. */
function paymentOf(request: FastifyRequest): AccessPayment | null {
  const signature = request.headers['payment-signature'];
  if (typeof signature === 'string') return { protocol: 'x402', header: signature };
  const authorization = request.headers.authorization;
  if (authorization !== undefined && /^Payment\s/i.test(authorization)) return { protocol: 'mpp', authorization };
  return null;
}

/**
 * The standing-access offer (spec 4.6, 5.3): GET describes it, POST sells it for one x402 or MPP payment of `usd`
 * dollars (payments/access-sales.ts, ADR 0029). Both need no credential: they are for clients that have none. With
 * payments off the POST answers 501 `payments_not_configured`.
 */
export function registerAgentsAccessRoutes(app: FastifyInstance, deps: AppDeps): void {
  app.get(
    '/v2/agents/access',
    { schema: { summary: 'The standing-access offer: an API key preloaded with prepaid credits', tags: ['agents'], security: [], response: { 200: AccessOffer } }, exposeHeadRoute: true },
    async (_request, reply) => {
      const access = deps.access;
      return reply.send({
        offer: 'standing-access',
        description: `An API key of its own organization plus an MCP token, preloaded with ${CREDITS_PER_USD} prepaid credits per US dollar, bought with one payment. Prepaid credits do not expire; a brand returned costs one credit. Paying again from the same wallet adds credits to the same key; each card payment buys its own key.`,
        creditsPerUsd: CREDITS_PER_USD,
        purchase: { method: 'POST', url: `${deps.publicUrl}${ACCESS_ROUTE}`, query: { usd: `whole US dollars, ${ACCESS_MIN_USD} to ${ACCESS_MAX_USD}` } },
        usd: { min: ACCESS_MIN_USD, max: ACCESS_MAX_USD },
        retryWindowSeconds: ACCESS_RETRY_WINDOW_MS / 1000,
        paymentMethods: access.paymentMethods(),
        purchasable: access.purchasable,
        message:
          !access.purchasable
            ? 'Standing access cannot be bought from this server: payments are off. Ask the operator of this server for an API key.'
            : 'POST without a payment to get the payment challenges for that amount (402), sign one and send the same POST again with it; the answer carries the API key and MCP token once.',
        documentation: docUrl(deps.publicUrl, 'standingAccess'),
      });
    },
  );

  app.post(
    '/v2/agents/access',
    {
      schema: {
        summary: 'Buy standing access: one x402 or MPP payment of `usd` US dollars',
        tags: ['agents'],
        security: [],
        querystring: Type.Object({ usd: Type.Optional(Type.String()) }),
        response: { 200: AccessPurchased, 400: ErrorBody, 402: ErrorBody, 409: ErrorBody, 501: ErrorBody, 503: ErrorBody },
        responseHeaders: { 200: ['cache-control', 'payment-response', 'payment-receipt'], 402: ['cache-control', 'payment-required', 'www-authenticate', 'payment-response'], 503: ['retry-after'] },
      },
    },
    async (request, reply) => {
      const access = deps.access;
      access.admitPurchase();
      const usd = parseAccessUsd((request.query as { usd?: unknown }).usd);
      if (usd === null) throw new ApiError('invalid_access_amount', undefined, { documentation: docUrl(deps.publicUrl, 'standingAccess') });
      const payment = paymentOf(request);
      if (payment === null) {
        throw new ApiError(
          'payment_required',
          `Payment required: pay ${usd} US dollars with x402 (PAYMENT-REQUIRED header) or MPP (WWW-Authenticate: Payment) to buy standing access.`,
          {
            documentation: docUrl(deps.publicUrl, 'standingAccess'),
            pricing: { route: ACCESS_ROUTE, price: `$${usd}` },
            resource: `${deps.publicUrl}${ACCESS_ROUTE}?usd=${usd}`,
            credits: usd * CREDITS_PER_USD,
          },
          await access.challenge(usd),
        );
      }
      const answer = await access.purchase(usd, payment);
      // The key is in the body: no cache may keep it.
      return reply.headers({ ...answer.headers, 'cache-control': 'no-store' }).send(answer.body);
    },
  );
}
