import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { apiKeyUrn, organizationUrn } from '../../domain/ids.js';
import type { AppDeps } from '../app-deps.js';
import { credentialOf } from '../credentials.js';
import { ErrorBody } from '../schemas/route-schemas.js';
import { UserViewerBody, userViewer } from './viewer-user.js';

const VIEWER_ROUTE = { method: 'GET', template: '/v2/viewer', missing: 'agent-access' } as const;

/** The API-key shape of spec 2.9. Never credential material: no secret, no hash, no prefix. */
export const ViewerBody = Type.Object(
  {
    type: Type.Literal('api-key'),
    id: Type.String(),
    urn: Type.String(),
    name: Type.String(),
    createdAt: Type.String({ format: 'date-time' }),
    usage: Type.Object({ used: Type.Integer(), quota: Type.Integer() }, { additionalProperties: false }),
    organization: Type.Object({ id: Type.String(), urn: Type.String(), name: Type.String() }, { additionalProperties: false }),
    agent: Type.Optional(
      Type.Object(
        {
          payer: Type.Union([Type.Literal('wallet'), Type.Literal('card')]),
          wallet: Type.Optional(Type.Object({ network: Type.String(), address: Type.String() }, { additionalProperties: false })),
          addCredits: Type.Object({ method: Type.Literal('POST'), url: Type.String(), howTo: Type.String() }, { additionalProperties: false }),
        },
        { additionalProperties: false, description: 'only on keys bought through standing access: who paid (a wallet with its network and address, or a card) and how to add credits' },
      ),
    ),
  },
  { additionalProperties: false },
);

/**
 * GET /v2/viewer (spec 4.4): free, valid even when the quota is exhausted (no credit or plan check here), exact
 * `usage.used` (the ledger after a flush), 401 with `agentAccess` when no Authorization header is sent.
 */
export function registerViewerRoute(app: FastifyInstance, deps: AppDeps): void {
  app.get(
    '/v2/viewer',
    { schema: { summary: 'The calling credential and its credit usage', tags: ['account'], response: { 200: Type.Union([ViewerBody, UserViewerBody]), 401: ErrorBody, 403: ErrorBody } } },
    async (request, reply) => {
      // A dashboard session token (ADR 0043) answers the user-session shape; API keys go on exactly as before.
      const credentials = deps.credentials;
      const credential = credentialOf(request);
      const session = await credentials.bearerSession(credential);
      if (session !== null) return reply.send(await userViewer(deps, session));
      const { key, org } = await credentials.principal(credential, VIEWER_ROUTE);
      const [usage, agent] = await Promise.all([deps.orgUsage.usage(org), deps.access.agentOf(key.id)]);
      return reply.send({
        type: 'api-key',
        id: key.id,
        urn: apiKeyUrn(org.id, key.id),
        name: key.name,
        createdAt: key.createdAt.toISOString(),
        usage: { used: usage.used, quota: usage.quota },
        organization: { id: org.id, urn: organizationUrn(org.id), name: org.name },
        // Spec 2.9: only keys bought through standing access carry `agent`.
        ...(agent === null ? {} : { agent }),
      });
    },
  );
}
