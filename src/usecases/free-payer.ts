import { FREE_HOLD, type CreditHold, type Payer, type UsageSnapshot } from './payer.js';

/** Free routes and internal callers (the CLI, tests): never holds, reports no usage. */
export const FREE_PAYER: Payer = {
  account: null,
  hold: (): Promise<CreditHold> => Promise.resolve(FREE_HOLD),
  usage: (): Promise<UsageSnapshot | null> => Promise.resolve(null),
};

/**
 * The operator's own domain is free for every caller (docs/billing.md): nothing is held, so it answers even
 * when the caller's quota is exhausted; the caller's usage is still reported as it stands.
 */
export function freeFor(payer: Payer): Payer {
  return { account: payer.account, hold: FREE_PAYER.hold, usage: () => payer.usage() };
}
