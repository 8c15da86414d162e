import type { Config } from '../config/config.js';
import type { BillingDefaults } from './billing.js';

/** The operator-wide billing defaults from configuration (organizations may override each). */
export function billingDefaults(config: Readonly<Config>): BillingDefaults {
  return { spendingLimitCents: config.overageSpendingLimitCents, rateLimitPerMinute: config.rateLimitPerMinute, prefetchPerMinute: config.prefetchPerMinute };
}
