/**
 * GET /v2/viewer with a dashboard session token (issue 23, ADR 0043): the user-session shape the spec leaves open
 * (docs/dashboard.md#the-viewer-with-a-session-token). Who the person is and what they may see: their organizations
 * with their role and each one's credit usage this period. Never credential material: no key, no session id.
 */
import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import { ApiError } from '../../domain/errors.js';
import { organizationUrn } from '../../domain/ids.js';
import type { AppDeps } from '../app-deps.js';

export const UserViewerBody = Type.Object(
  {
    type: Type.Literal('user'),
    id: Type.String(),
    urn: Type.String(),
    email: Type.String(),
    session: Type.Object({ createdAt: Type.String({ format: 'date-time' }), expiresAt: Type.String({ format: 'date-time' }) }, { additionalProperties: false }),
    organizations: Type.Array(
      Type.Object(
        {
          id: Type.String(),
          urn: Type.String(),
          name: Type.String(),
          role: Type.Union([Type.Literal('owner'), Type.Literal('member')]),
          usage: Type.Object({ used: Type.Integer(), quota: Type.Integer() }, { additionalProperties: false }),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false, description: 'a dashboard session token (JWT) instead of an API key' },
);

/** A compact JWS (three base64url parts, a JSON header): what a session token looks like, never an API key. */
const JWT = /^eyJ[A-Za-z0-9_-]*\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;

/** The bearer token when it is a session token, else null (an API key goes the API-key way). */
export function sessionBearer(request: FastifyRequest): string | null {
  const match = /^Bearer (\S+)$/i.exec(request.headers.authorization?.trim() ?? '');
  return match?.[1] !== undefined && JWT.test(match[1]) ? match[1] : null;
}

/** The viewer of a session token; 403 `invalid_session` when it is bad, revoked or expired. */
export async function userViewer(deps: AppDeps, token: string): Promise<Record<string, unknown>> {
  const accounts = deps.dashboard;
  const active = await accounts.readSession(token);
  if (!active) throw new ApiError('invalid_session');
  const orgs = await accounts.organizationsOf(active.user.id);
  const organizations = await Promise.all(
    orgs.map(async (o) => {
      const org = await deps.accounts.getOrganization(o.id);
      const usage = org ? await deps.orgUsage.usage(org) : { used: 0, quota: 0 };
      return { id: o.id, urn: organizationUrn(o.id), name: o.name, role: o.role, usage: { used: usage.used, quota: usage.quota } };
    }),
  );
  return {
    type: 'user',
    id: active.user.id,
    urn: `urn:brandbase:user:${active.user.id}`,
    email: active.user.email,
    session: { createdAt: active.session.createdAt.toISOString(), expiresAt: active.session.expiresAt.toISOString() },
    organizations,
  };
}
