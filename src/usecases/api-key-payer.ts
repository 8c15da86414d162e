import type { Principal } from '../billing/authenticator.js';
import type { Billing, Hold, RouteClass } from '../billing/billing.js';
import { completeNothing, type CreditHold, type HoldKind, type Payer, type UsageSnapshot } from './payer.js';

/** A billing hold as a CreditHold: the organization is charged exactly what is settled. */
class ApiKeyHold implements CreditHold {
  constructor(private readonly hold: Hold) {}

  get reserved(): number {
    return this.hold.reserved;
  }

  settle(credits: number, reason: string): number {
    this.hold.settle(credits, reason);
    return credits;
  }

  release(): void {
    this.hold.release();
  }

  /** Credits are booked by `settle`: nothing to complete. */
  readonly complete = completeNothing;
}

/**
 * An API key's organization pays (spec 5.1): credits from the period quota, then prepaid credits, then overage
 * within the spending limit (billing/billing.ts owns those rules and the usage ledger).
 */
export class ApiKeyPayer implements Payer {
  private constructor(
    private readonly billing: Billing,
    readonly principal: Principal,
  ) {}

  /**
   * The payer of an authenticated key, admitted for the route class: 403 when the organization may not use it
   * (`paid_plan_required`, `no_credits`), 429 `rate_limited` over its throughput limit (or its prefetch limit).
   */
  static async admit(billing: Billing, principal: Principal, route: RouteClass): Promise<ApiKeyPayer> {
    await billing.assertCanUse(principal.org, route);
    billing.admit(principal.org, route);
    return new ApiKeyPayer(billing, principal);
  }

  get account(): string {
    return this.principal.org.id;
  }

  async hold(credits: number, kind: HoldKind): Promise<CreditHold> {
    return new ApiKeyHold(await this.billing.reserve(this.principal, credits, kind));
  }

  async usage(): Promise<UsageSnapshot> {
    return { quota: this.principal.org.quota, approximateUsed: await this.billing.approximateUsed(this.principal.org) };
  }
}
