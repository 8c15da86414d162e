import type { ApiKeyRecord, Organization } from '../domain/accounts.js';

/** With `--json`, exactly one JSON object on stdout; otherwise a line of text. */
export function print(json: boolean | undefined, object: Record<string, unknown>, text: string): void {
  console.log(json ? JSON.stringify(object) : text);
}

/**
 * Rows for people: on a terminal, columns aligned under a header; piped, tab-separated rows without a header, so
 * `cut -f1` and friends keep working. `empty` is printed when there are no rows.
 */
export function table(headers: readonly string[], rows: readonly (readonly string[])[], empty: string, tty = process.stdout.isTTY === true): string {
  if (rows.length === 0) return empty;
  if (!tty) return rows.map((row) => row.join('\t')).join('\n');
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((row) => (row[i] ?? '').length)));
  const line = (cells: readonly string[]) => cells.map((cell, i) => (i === cells.length - 1 ? cell : cell.padEnd(widths[i] ?? 0))).join('  ');
  return [line(headers.map((h) => h.toUpperCase())), ...rows.map(line)].join('\n');
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
