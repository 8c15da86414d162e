/**
 * GET /v2/viewer with a dashboard session token (issue 23, ADR 0043): the user-session shape the spec leaves open
 * (docs/dashboard.md#the-viewer-with-a-session-token). Who the person is and what they may see: their organizations
 * with their role and each one's credit usage this period. Never credential material: no key, no session id.
 */
import { Type } from '@sinclair/typebox';
import type { ActiveSession } from '../../dashboard-accounts/dashboard-accounts.js';
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

/** The viewer of a live session (read by http/credentials.ts from the bearer token). */
export async function userViewer(deps: AppDeps, active: ActiveSession): Promise<Record<string, unknown>> {
  const accounts = deps.dashboard;
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
