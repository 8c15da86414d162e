import type { Authenticator } from '../billing/authenticator.js';
import type { Billing } from '../billing/billing.js';
import type { AssetStore } from '../assets/asset-store.js';
import type { Logger } from '../platform/logger.js';
import type { X402Payments } from '../payments/x402-payments.js';
import type { MppPayments } from '../payments/mpp-payments.js';
import type { UseCaseDeps } from '../usecases/use-case-deps.js';

/** Everything the HTTP layer needs; main/ builds it from Config. Routes parse, call one use case, shape the answer. */
export interface AppDeps {
  logger: Logger;
  publicUrl: string;
  authenticator: Authenticator;
  /** Admission of API-key payers (plan, credits, throughput) and the viewer's exact usage. */
  billing: Billing;
  usecases: UseCaseDeps;
  assets: AssetStore;
  /** Readiness probe: resolves when the store answers. */
  ping: () => Promise<void>;
  /** An oversize request body is read and discarded up to this many bytes before its 413 (body-limit.ts). */
  discardBodyMaxBytes: number;
  /** Pay-per-request over x402 (ADR 0028); null when payments are off (BRANDBASE_PAYMENTS=off). */
  payments?: X402Payments | null;
  /** Pay-per-request over MPP (`Authorization: Payment`); null when off. */
  mpp?: MppPayments | null;
}
