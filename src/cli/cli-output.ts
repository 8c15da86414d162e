import type { ApiKeyRecord, Organization } from '../domain/accounts.js';

/** With `--json`, exactly one JSON object on stdout; otherwise a line of text. */
export function print(json: boolean | undefined, object: Record<string, unknown>, text: string): void {
  console.log(json ? JSON.stringify(object) : text);
}

export function orgJson(org: Organization): Record<string, unknown> {
  return {
    id: org.id,
    name: org.name,
    plan: org.plan,
    quota: org.quota,
    prepaidCredits: org.prepaidCredits,
    spendingLimitCents: org.spendingLimitCents,
    rateLimitPerMinute: org.rateLimitPerMinute,
    billingContacts: org.billingContacts,
    createdAt: org.createdAt.toISOString(),
  };
}

/** Never includes the secret or its hash. */
export function keyJson(key: ApiKeyRecord): Record<string, unknown> {
  return { id: key.id, orgId: key.orgId, name: key.name, prefix: key.prefix, createdAt: key.createdAt.toISOString(), revokedAt: key.revokedAt?.toISOString() ?? null };
}
