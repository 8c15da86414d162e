/**
 * What a command needs once it runs: the configuration (environment over the configuration file) and the
 * management services over the store (never the store itself: issue 31). Loaded by each action on demand
 * (`await import`), so `brandbase --help` and `--version` load neither.
 */
import type { Config } from '../config/config.js';
import { loadConfigWithFile } from '../config/config-file.js';
import { adminServicesFor, type AdminServices } from '../main/admin-services.js';
import { openBackends, type Backends } from '../main/open-backends.js';

/** Options every command accepts (registered on the program in main.ts). */
export interface GlobalOptions {
  /** Append log lines to this file instead of writing them to the terminal. */
  logFile?: string;
}

export function cliConfig(): Readonly<Config> {
  return loadConfigWithFile().config;
}

/** Says on stderr which store a command created, so a store made in the wrong place is seen at once. */
export function reportNewStore(backends: Pick<Backends, 'created' | 'location'>): void {
  if (backends.created) process.stderr.write(`brandbase: created a new store at ${backends.location}\n`);
}

/** Opens the store for one command (migrating it), says if it was created, and always closes it. */
export async function withStore<T>(config: Readonly<Config>, run: (backends: Backends) => Promise<T>): Promise<T> {
  const backends = await openBackends(config);
  reportNewStore(backends);
  try {
    return await run(backends);
  } finally {
    await backends.close();
  }
}

/** Opens the store for one command (migrating it) and hands the command the management services over it. */
export function withAdmin<T>(config: Readonly<Config>, run: (admin: AdminServices) => Promise<T>): Promise<T> {
  return withStore(config, (backends) => run(adminServicesFor(config, backends)));
}
