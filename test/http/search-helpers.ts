/**
 * Shared set-up of the search HTTP tests: held brands saved through the real store (with icon asset keys), a client
 * ID created through the admin service, and a search app whose gate runs on a simulated clock.
 */
import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { ClientIdGateService, type ProductPolicy } from '../../src/billing/client-id-gate.js';
import { ClientIdUsage } from '../../src/billing/client-id-usage.js';
import type { Brand } from '../../src/domain/brand.js';
import { buildApp } from '../../src/http/app.js';
import { appDepsFor } from '../../src/main/app-deps.js';
import type { Services } from '../../src/main/services.js';
import { NO_METRICS } from '../../src/platform/metrics.js';
import { sampleBrand } from '../store/sample-brand.js';

export const T0 = new Date('2026-11-02T09:00:00.000Z');

/** An asset key (`<sha256>.png`) for a name: what a crawl stores as a logo's `src`. */
export function iconKeyFor(name: string): string {
  return `${createHash('sha256').update(name).digest('hex')}.png`;
}

/** Saves a held brand named `name` at `domain`, with an icon logo stored as an asset key. */
export async function saveHeld(services: Services, domain: string, name: string, overrides: Partial<Brand> = {}): Promise<Brand> {
  const icon = iconKeyFor(name);
  const brand = sampleBrand(domain, {
    name,
    logos: [{ theme: null, type: 'icon', tags: [], formats: [{ src: icon, format: 'png', width: 64, height: 64, size: 900, background: null }] }],
    images: [],
    ...overrides,
  });
  await services.stores.brands.saveBrand({ brand, status: 'indexed', crawledAt: T0, createdAt: T0, updatedAt: T0 }, [{ kind: 'domain', value: domain }]);
  return brand;
}

export interface GatedApp {
  app: FastifyInstance;
  gate: ClientIdGateService;
  usage: ClientIdUsage;
  clock: { now: number };
}

/** The real app with a gate of the given policy on a clock the test moves (the rest as `serve` wires it). */
export async function gatedApp(services: Services, search: ProductPolicy, options: { hardLimitFactor?: number; windowMs?: number } = {}): Promise<GatedApp> {
  const clock = { now: T0.getTime() };
  const usage = new ClientIdUsage(services.stores.billing, () => new Date(clock.now), { flushMs: 60_000, reloadMs: 0 });
  const gate = new ClientIdGateService(services.stores.billing, usage, {
    products: { search, logo: search },
    windowMs: options.windowMs ?? 300_000,
    hardLimitFactor: options.hardLimitFactor ?? 2,
    apiProcesses: 1,
    cacheMs: 0,
    clock: () => clock.now,
  });
  // A second app over the same services: request metrics stay with the stack's own app (one registration each).
  const app = await buildApp({ ...appDepsFor(services), metrics: { registry: NO_METRICS, token: null }, search: { gate, brands: services.brandSearch } });
  await app.ready();
  return { app, gate, usage, clock };
}
