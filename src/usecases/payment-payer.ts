import { NO_RECEIPT, type CreditHold, type HoldKind, type Payer, type Receipt, type UsageSnapshot } from './payer.js';

/**
 * One payment presented with a request (x402 today), as the use-case layer sees it: verified already, claimed
 * before the operation runs, then settled or released once the answer is known. payments/ implements it.
 */
export interface PaidRequest {
  /** Who paid: `x402:<wallet address>`, so work queued on a wallet's behalf takes fair turns (ADR 0015). */
  readonly account: string;
  /** Records the payment before the answer exists; throws the refusal (an ApiError) when it was already used. */
  claim(): Promise<void>;
  /** Moves the money; returns the receipt headers. Throws (nothing charged) when the settlement fails. */
  settle(): Promise<Record<string, string>>;
  /** Forgets the claim: the answer cost nothing, so the same payment may be presented again. */
  release(): Promise<void>;
}

/**
 * A request paid on the spot (spec 5.2): one payment pays for one charged answer. The hold claims the payment; the
 * billing rule decides whether the answer is charged (only a returned brand), and the hold's `complete()`, taken by
 * `charged()` once the answer is known and before it is sent, settles it or releases the claim.
 */
export class PaymentPayer implements Payer {
  constructor(private readonly paid: PaidRequest) {}

  get account(): string {
    return this.paid.account;
  }

  async hold(credits: number, _kind: HoldKind): Promise<CreditHold> {
    await this.paid.claim();
    let charged = false;
    return {
      reserved: credits,
      settle: (cost: number) => {
        charged = cost > 0;
        // The payment is the price of one answer, whatever its credits: report what the payer was charged.
        return cost;
      },
      release: () => {
        charged = false;
      },
      // Settles a charged answer (its receipt headers) or releases the claim of one that cost nothing.
      complete: async (): Promise<Receipt> => {
        if (charged) return this.paid.settle();
        await this.paid.release();
        return NO_RECEIPT;
      },
    };
  }

  /** A paid request has no quota to report. */
  usage(): Promise<UsageSnapshot | null> {
    return Promise.resolve(null);
  }
}
