import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { loadConfig } from '../../src/config/config.js';
import { buildApp } from '../../src/http/app.js';
import { appDepsFor } from '../../src/main/app-deps.js';
import { createServices, type Services } from '../../src/main/services.js';
import { createLogger } from '../../src/platform/logger.js';
import type { Plan } from '../../src/domain/accounts.js';
import { openBackendDatabase, type Backend } from './backends.js';
import type { SharedDatabase } from './shared-database.js';
import { useProcessTimeouts } from './process-timeouts.js';

// The services crawl in worker processes (ADR 0014), each loading the crawler at start: a file that crawls through
// this stack starts processes, and gets the timeouts sized for a busy machine (process-timeouts.ts).
useProcessTimeouts();

export interface TestStack {
  app: FastifyInstance;
  services: Services;
  backend: Backend;
  /** The database the stack runs on: hand it to another stack or a `brandbase` process to share it. */
  database: SharedDatabase;
  dataDir: string;
  /** Every log line the service wrote, as text. */
  logs: () => string;
  /** A new organization and key. `overage: false` sets the spending limit to 0, so the quota is a hard stop. */
  newKey(options?: { plan?: Plan; quota?: number; overage?: boolean }): Promise<{ key: string; keyId: string; orgId: string }>;
  close(): Promise<void>;
}

/**
 * The real service, wired exactly as `brandbase serve` wires it, on a fresh database of `options.backend` (a temp-dir
 * SQLite store by default, or a PostgreSQL schema of its own: backends.ts), or on `options.database`, which the
 * stack then shares and leaves in place on close (a restart, a CLI beside it). HTTP through inject.
 */
export async function startTestStack(env: Record<string, string> = {}, options: { backend?: Backend; database?: SharedDatabase; clock?: () => number } = {}): Promise<TestStack> {
  const database = options.database ?? (await openBackendDatabase(options.backend ?? 'sqlite'));
  const backend = database.backend;
  const dataDir = database.dataDir;
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      lines.push(chunk.toString('utf8'));
      done();
    },
  });
  const logger = createLogger({ level: 'info', destination: sink });
  const config = loadConfig({ ...database.env, BRANDBASE_PUBLIC_URL: 'http://brandbase.test', BRANDBASE_KEY_CACHE_MS: '0', ...env });
  const services = await createServices(config, logger);
  const app = await buildApp(appDepsFor(services, options.clock));
  await app.ready();
  return {
    app,
    services,
    backend,
    database,
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
      if (!options.database) await database.cleanup();
    },
  };
}

export function bearer(key: string): { authorization: string } {
  return { authorization: `Bearer ${key}` };
}
