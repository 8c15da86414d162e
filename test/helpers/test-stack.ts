import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { loadConfig } from '../../src/config/config.js';
import { buildApp } from '../../src/http/app.js';
import { appDepsFor } from '../../src/main/app-deps.js';
import { createServices, type Services } from '../../src/main/services.js';
import { createLogger } from '../../src/platform/logger.js';
import type { Plan } from '../../src/domain/accounts.js';
import { useProcessTimeouts } from './process-timeouts.js';

// The services crawl in worker processes (ADR 0014), each loading the crawler at start: a file that crawls through
// this stack starts processes, and gets the timeouts sized for a busy machine (process-timeouts.ts).
useProcessTimeouts();

export interface TestStack {
  app: FastifyInstance;
  services: Services;
  dataDir: string;
  /** Every log line the service wrote, as text. */
  logs: () => string;
  /** A new organization and key. `overage: false` sets the spending limit to 0, so the quota is a hard stop. */
  newKey(options?: { plan?: Plan; quota?: number; overage?: boolean }): Promise<{ key: string; keyId: string; orgId: string }>;
  close(): Promise<void>;
}

/** The real service on a temp-dir SQLite store, wired exactly as `brandbase serve` wires it; HTTP through inject. */
export async function startTestStack(env: Record<string, string> = {}): Promise<TestStack> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'brandbase-test-'));
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      lines.push(chunk.toString('utf8'));
      done();
    },
  });
  const logger = createLogger({ level: 'info', destination: sink });
  const config = loadConfig({ BRANDBASE_DATA_DIR: dataDir, BRANDBASE_PUBLIC_URL: 'http://brandbase.test', BRANDBASE_KEY_CACHE_MS: '0', ...env });
  const services = await createServices(config, logger);
  const app = await buildApp(appDepsFor(services));
  await app.ready();
  return {
    app,
    services,
    dataDir,
    logs: () => lines.join(''),
    async newKey(options = {}) {
      const org = await services.accounts.createOrganization({ name: 'Test org', plan: options.plan ?? 'paid', quota: options.quota ?? 1000 });
      if (options.overage === false) await services.stores.billing.updateOrganization(org.id, { spendingLimitCents: 0 });
      const key = await services.accounts.createApiKey({ orgId: org.id });
      return { key: key.key, keyId: key.id, orgId: org.id };
    },
    async close() {
      await app.close();
      await services.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

export function bearer(key: string): { authorization: string } {
  return { authorization: `Bearer ${key}` };
}
