/**
 * Standing access as the transports see it (ADR 0029): `AccessSales` when payments are on, `noStandingAccess` when
 * they are off, so the routes and the viewer call one object instead of checking whether sales exist (issue 31).
 */
import { ApiError } from '../domain/errors.js';
import type { AccessAnswer, AccessPayment } from './access-sales.js';

export interface StandingAccess {
  /** False when this server sells no standing access (payments off): the offer says so. */
  readonly purchasable: boolean;
  /** Throws 501 `payments_not_configured` when nothing can be bought here; checked before the amount is read. */
  admitPurchase(): void;
  /** What the GET offer lists as accepted payments. */
  paymentMethods(): Record<string, unknown>[];
  /** The 402 challenges for N dollars. */
  challenge(usd: number): Promise<Record<string, string>>;
  purchase(usd: number, payment: AccessPayment): Promise<AccessAnswer>;
  /** The viewer's `agent` object of a key bought through standing access; null for every other key. */
  agentOf(apiKeyId: string): Promise<Record<string, unknown> | null>;
}

/** No standing access (BRANDBASE_PAYMENTS=off): no method offered, every purchase 501, no key was ever bought. */
export function noStandingAccess(documentation: string): StandingAccess {
  const refuse = (): never => {
    throw new ApiError('payments_not_configured', undefined, { documentation });
  };
  return {
    purchasable: false,
    admitPurchase: refuse,
    paymentMethods: () => [],
    challenge: async () => refuse(),
    purchase: async () => refuse(),
    agentOf: async () => null,
  };
}
