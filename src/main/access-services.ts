import { randomBytes } from 'node:crypto';
import type { UsageMeter } from '../billing/usage-meter.js';
import type { Config } from '../config/config.js';
import { CardPayments } from '../payments/access-card.js';
import { AccessSales, type AccessSalesOptions } from '../payments/access-sales.js';
import { EmbeddedCardProcessor } from '../payments/embedded-card-processor.js';
import type { Logger } from '../platform/logger.js';
import { keyFromDataDir, keyFromSecret } from '../platform/sealed-box.js';

/**
 * Standing access (ADR 0029) with the configured payments: null when payments are off. The seal key of
 * undelivered secrets uses the installation key (BRANDBASE_SECRET_KEY, or `secret.key` in the data folder), read
 * on the first purchase; a purchase's new credits make the usage meter reload that organization. Cards are
 * charged by Stripe when BRANDBASE_MPP_STRIPE_SECRET_KEY is set, by the embedded card processor otherwise.
 */
export function accessSalesFor(config: Readonly<Config>, stores: Pick<AccessSalesOptions, 'access' | 'payments' | 'accounts'>, logger: Logger, meter: UsageMeter): AccessSales | null {
  const p = config.payments;
  if (!p.enabled) return null;
  let key: Buffer | null = null;
  const installationKey = (): Buffer => (key ??= config.secretKey === null ? keyFromDataDir(config.dataDir) : keyFromSecret(config.secretKey));
  const mppSecretKey = p.mpp || p.card ? (p.mppSecretKey ?? randomBytes(32).toString('hex')) : null;
  const card =
    p.card && mppSecretKey !== null
      ? new CardPayments({
          secretKey: mppSecretKey,
          realm: new URL(config.publicUrl).host,
          networkId: p.stripeNetworkId,
          processor: p.stripeSecretKey === null ? new EmbeddedCardProcessor(stores.access) : null,
          stripeSecretKey: p.stripeSecretKey,
          logger,
          now: () => new Date(),
        })
      : null;
  return new AccessSales({
    ...stores,
    settings: { network: p.network, asset: p.asset, assetName: p.assetName, assetVersion: p.assetVersion, payTo: p.payTo, priceUnits: p.priceUnits, maxTimeoutSeconds: p.maxTimeoutSeconds, facilitatorUrl: p.facilitatorUrl },
    mppSecretKey: p.mpp ? mppSecretKey : null,
    card,
    publicUrl: config.publicUrl,
    installationKey,
    logger,
    onCredits: (orgId) => meter.forget(orgId),
  });
}
