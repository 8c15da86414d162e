/**
 * The probe behind `npm test`'s optional backends (test/setup/global-setup.ts): a PostgreSQL that answers is used
 * with no variable set, one asked for that does not answer is an error, and a missing one is a skip with a reason.
 */
import { describe, expect, it } from 'vitest';
import { POSTGRES_URL, requirement } from '../helpers/optional.js';
import { closedPort } from '../platform/servers.js';
import { DEFAULT_TEST_PG_URL, POSTGRES_TAG, PostgresUnreachableError, probeChromium, probePostgres } from './optional-backends.js';

describe('probePostgres', () => {
  it('BRANDBASE_TEST_PG_URL=off skips, whatever answers', async () => {
    expect(await probePostgres('off')).toEqual({ use: null, skipReason: 'turned off by BRANDBASE_TEST_PG_URL=off' });
    expect(await probePostgres(' OFF ')).toMatchObject({ use: null });
  });

  it('with no variable and no server at the default address: skipped, and the reason names the address and the error', async () => {
    const url = `postgres://postgres@127.0.0.1:${await closedPort()}/test`;
    const probe = await probePostgres(undefined, url);
    expect(probe.use).toBeNull();
    expect(probe.skipReason).toContain(url);
    expect(probe.skipReason).toContain('ECONNREFUSED');
  });

  it('a server asked for by BRANDBASE_TEST_PG_URL that does not answer fails the run instead of skipping', async () => {
    const url = `postgres://postgres:secret@127.0.0.1:${await closedPort()}/test`;
    const probe = probePostgres(url);
    await expect(probe).rejects.toBeInstanceOf(PostgresUnreachableError);
    await expect(probe).rejects.toThrow(/ECONNREFUSED/);
    await expect(probe).rejects.not.toThrow(/secret/);
  });

  // Where this run has a server (the global setup found one), the probe must find it with no variable set too.
  requirement([POSTGRES_TAG], POSTGRES_URL === DEFAULT_TEST_PG_URL).it('finds the server at the default address with no variable set', async () => {
    expect(await probePostgres(undefined)).toEqual({ use: DEFAULT_TEST_PG_URL, skipReason: null });
  });
});

describe('probeChromium', () => {
  it('a path that is not an executable is a skip with the path in the reason', () => {
    expect(probeChromium('/nonexistent/chromium')).toEqual({ use: null, skipReason: 'no Chromium executable at BRANDBASE_CHROMIUM_PATH=/nonexistent/chromium' });
  });
});
