import type { Authenticator } from '../billing/authenticator.js';
import type { UsageMeter } from '../billing/usage-meter.js';
import type { BrandLookup } from '../brands/brand-lookup.js';
import type { AssetStore } from '../media/asset-store.js';
import type { Logger } from '../platform/logger.js';

/** Everything the HTTP layer needs; main/ builds it from Config. Routes never touch a backend directly. */
export interface AppDeps {
  logger: Logger;
  publicUrl: string;
  operatorDomain: string | null;
  authenticator: Authenticator;
  meter: UsageMeter;
  lookup: BrandLookup;
  assets: AssetStore;
  /** Readiness probe: resolves when the store answers. */
  ping: () => Promise<void>;
}
