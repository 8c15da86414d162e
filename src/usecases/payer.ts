/**
 * The payer port: who pays for a charged operation, independent of the transport it came in on. A use case
 * holds credits before it runs, then settles what the billing rule charges (only a returned brand) or releases
 * the hold. Implementations: an API key's organization (api-key-payer.ts), the operator's own domain and free
 * routes (free-payer.ts), a payment presented with the request (payment-payer.ts: x402, MPP). Completing a payment
 * (settling it or giving it back) is the hold's last step, taken by `charged()` once the answer is known and before
 * it is returned, so no transport completes anything.
 */

/** Headers a completed hold hands the transport: a payment's receipt (`PAYMENT-RESPONSE`, `Payment-Receipt`). */
export type Receipt = Readonly<Record<string, string>>;

/** The receipt of a hold that has nothing to complete (credits are booked when settled). */
export const NO_RECEIPT: Receipt = Object.freeze({});

/** `complete` of a hold with nothing to complete: no promise, no allocation (the keyed cached lookup is hot). */
export const completeNothing = (): Receipt => NO_RECEIPT;

/** Credits held for one operation: settle what the answer costs (the rest is released) or release them all. */
export interface CreditHold {
  readonly reserved: number;
  /**
   * Charges what the answer costs (0 ≤ credits ≤ reserved) under `reason` (e.g. `brand.lookup`), once, and
   * returns the credits the payer was actually charged: `credits`, or 0 for a payer that does not pay.
   */
  settle(credits: number, reason: string): number;
  /** Charges nothing (failures, free answers). */
  release(): void;
  /**
   * The last step, after `settle` or `release`, once the answer is known and before it is sent: a payment is moved
   * (settled: its receipt returned; a failure throws and the answer is withheld) or given back (released).
   * `completeNothing` for holds of credits.
   */
  complete(): Receipt | Promise<Receipt>;
}

/** What the caller's usage stands at after the operation (the `x-api-key-*` headers of spec 4.3 and 5.1). */
export interface UsageSnapshot {
  quota: number;
  /** This process's count; it may trail other processes (the header is "approximate"). */
  approximateUsed: number;
}

export type HoldKind =
  /** One brand: 429 `quota_exceeded` when not even one credit is available. */
  | 'single'
  /** All `credits` or a 429 carrying {quota, used, remaining, required}. */
  | 'batch';

export interface Payer {
  /**
   * Who pays: an organization id (or later a wallet), so background work queued on its behalf takes fair turns
   * with other payers' work (ADR 0015); null for the operator's own work.
   */
  readonly account: string | null;
  /** Reserves credits before the operation runs; throws the payer's refusal (an ApiError) when it cannot pay. */
  hold(credits: number, kind: HoldKind): Promise<CreditHold>;
  /** The usage to report with the answer, or null when the payer has no quota to report. */
  usage(): Promise<UsageSnapshot | null>;
}

/** The hold of a payer that does not pay (free routes, the operator's domain): whatever is settled costs 0. */
export const FREE_HOLD: CreditHold = {
  reserved: 0,
  settle: () => 0,
  release() {},
  complete: completeNothing,
};

/**
 * What every charged use case answers: its value, the credits it cost the payer, its usage afterwards, and the
 * receipt of a payment (headers for the answer; empty for other payers).
 */
export interface Charged<T> {
  value: T;
  cost: number;
  usage: UsageSnapshot | null;
  receipt: Receipt;
}

/**
 * Runs `operation(context)` between a hold of `credits` and its settlement: `cost(context, value)` says what the
 * answer costs (at most what was held). A failure releases the hold, so an error never costs a credit. Either way
 * the hold is completed before this returns or throws (a payment settled or given back). The
 * operation and the cost rule are module-level functions given a context, not closures: this runs on every
 * cached lookup, where a closure per request is measurable.
 */
export async function charged<C, T>(
  payer: Payer,
  credits: number,
  kind: HoldKind,
  reason: string,
  context: C,
  operation: (context: C) => Promise<T>,
  cost: (context: C, value: T) => number,
): Promise<Charged<T>> {
  const hold = credits > 0 ? await payer.hold(credits, kind) : FREE_HOLD;
  let value: T;
  let charge: number;
  try {
    value = await operation(context);
    charge = hold.settle(cost(context, value), reason);
  } catch (error) {
    hold.release();
    await hold.complete();
    throw error;
  }
  // Credit holds complete synchronously: no await (no extra turn) on the keyed hot path.
  const completing = hold.complete();
  const receipt = completing instanceof Promise ? await completing : completing;
  return { value, cost: charge, usage: await payer.usage(), receipt };
}
