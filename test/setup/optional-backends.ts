/**
 * Which optional test backends this run has: a PostgreSQL server for the PostgreSQL half of the contract suites,
 * and a Chromium executable for the rendering tests. Probed once per run by the global setup (global-setup.ts),
 * handed to the test files with vitest's provide/inject, and reported loudly by skip-report-reporter.ts when one
 * is missing, so a run can never skip them silently.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { DEFAULT_CHROMIUM_PATH, findChromium } from '../../src/crawl/fetch/render/browser-renderer.js';

/** The server `npm test` looks for when BRANDBASE_TEST_PG_URL is not set (the one CI and the README use). */
export const DEFAULT_TEST_PG_URL = 'postgres://postgres@127.0.0.1:5432/test';
/** BRANDBASE_TEST_PG_URL=off skips the PostgreSQL suites even when a server answers at the default address. */
export const PG_OFF = 'off';
/** Short on an idle machine, long enough for a server on a loaded one: only a server that is not there misses it. */
const CONNECT_TIMEOUT_MS = 5_000;

/** Tags that mark the tests needing an optional backend (declared in vitest.config.ts). */
export const POSTGRES_TAG = 'postgres';
export const CHROMIUM_TAG = 'chromium';
/**
 * What a Chromium test covers, each its own tag `chromium-<kind>` beside `chromium`, so a run without Chromium can say
 * how many of each it did not run: the served pages in a browser, palettes built from a render, the Chromium SSRF
 * trap, and the crawl's other rendering tests.
 */
export const CHROMIUM_KINDS = ['browser', 'palette', 'ssrf', 'render'] as const;
export type ChromiumKind = (typeof CHROMIUM_KINDS)[number];
/** Tests that read the interface contract's text (../shared/spec), which a clone of the repository alone lacks. */
export const SPEC_TAG = 'spec-text';

export interface BackendProbe {
  /** The URL or path the tests use; null when the tests that need it are skipped. */
  use: string | null;
  /** Why they are skipped (null when they run). */
  skipReason: string | null;
}

declare module 'vitest' {
  export interface ProvidedContext {
    postgres: BackendProbe;
    chromium: BackendProbe;
    specText: BackendProbe;
  }
}

/** A server explicitly asked for (variable set) that does not answer is an error, not a skip: the run would lie. */
export class PostgresUnreachableError extends Error {}

/** `defaultUrl` is only ever changed by the probe's own test (a port where nothing listens). */
export async function probePostgres(setting: string | undefined, defaultUrl = DEFAULT_TEST_PG_URL): Promise<BackendProbe> {
  const value = setting?.trim();
  if (value?.toLowerCase() === PG_OFF) return { use: null, skipReason: `turned off by BRANDBASE_TEST_PG_URL=${PG_OFF}` };
  const url = value || defaultUrl;
  const failure = await connectFailure(url);
  if (failure === null) return { use: url, skipReason: null };
  if (value) {
    throw new PostgresUnreachableError(
      `BRANDBASE_TEST_PG_URL=${redact(url)} is set but no PostgreSQL answers there (${failure}). Start it, or set BRANDBASE_TEST_PG_URL=${PG_OFF} to skip the PostgreSQL suites.`,
    );
  }
  return { use: null, skipReason: `no PostgreSQL server at ${redact(url)} (${failure}); set BRANDBASE_TEST_PG_URL to use another` };
}

/** null when a session could be opened and answered a query; the reason otherwise. */
async function connectFailure(url: string): Promise<string | null> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
  // A server that drops the connection later emits 'error' on the client; the probe has its answer by then.
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.query('select 1');
    return null;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const message = error instanceof Error ? error.message : String(error);
    return code && !message.includes(code) ? `${code}: ${message}` : message;
  } finally {
    await client.end().catch(() => undefined);
  }
}

export function probeChromium(setting: string | undefined): BackendProbe {
  const path = findChromium(setting);
  if (path !== null) return { use: path, skipReason: null };
  const looked = setting?.trim() ? `BRANDBASE_CHROMIUM_PATH=${setting.trim()}` : `${DEFAULT_CHROMIUM_PATH} (Debian package \`chromium\`; or set BRANDBASE_CHROMIUM_PATH)`;
  return { use: null, skipReason: `no Chromium executable at ${looked}` };
}

/** The interface contract, kept beside the repository (../shared/spec), not in it: a clone alone lacks it. */
export const SPEC_TEXT_PATH = fileURLToPath(new URL('../../../shared/spec/brand-data-service.md', import.meta.url));

export function probeSpecText(file = SPEC_TEXT_PATH): BackendProbe {
  return existsSync(file) ? { use: file, skipReason: null } : { use: null, skipReason: `no spec text at ${file}` };
}

/** The URL without its password, for messages. */
function redact(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return url;
  }
}
