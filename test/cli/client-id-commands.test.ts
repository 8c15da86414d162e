/**
 * `brandbase client-ids create|list|revoke|set-referrers` (src/cli/client-id-commands.ts) and the `clientIds` field
 * of `brandbase keys list`, run in-process through the real program on a temp SQLite store; what they write is
 * what the search gate reads (checked through the store the commands use).
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildProgram } from '../../src/cli/program.js';
import { CLIENT_ID_PATTERN } from '../../src/domain/client-id-record.js';

let dir: string;
const saved = { ...process.env };

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'brandbase-client-id-cli-'));
  process.env.BRANDBASE_DATA_DIR = dir;
  // An empty configuration file: the installation's own brandbase.env (if any) must not apply.
  process.env.BRANDBASE_CONFIG_FILE = path.join(dir, 'brandbase.env');
  await writeFile(process.env.BRANDBASE_CONFIG_FILE, '');
  delete process.env.BRANDBASE_DATABASE_URL;
});
afterAll(async () => {
  process.env = saved;
  await rm(dir, { recursive: true, force: true });
});
afterEach(() => {
  process.exitCode = undefined;
});

async function run(...args: string[]): Promise<string> {
  const out: string[] = [];
  const log = vi.spyOn(console, 'log').mockImplementation((...parts: unknown[]) => void out.push(parts.join(' ')));
  try {
    await buildProgram().exitOverride().parseAsync(['node', 'brandbase', ...args]);
  } finally {
    log.mockRestore();
  }
  return out.join('\n');
}

async function json(...args: string[]): Promise<Record<string, any>> { // eslint-disable-line @typescript-eslint/no-explicit-any -- printed JSON
  const out = await run(...args, '--json');
  expect(out.split('\n')).toHaveLength(1);
  return JSON.parse(out);
}

describe('brandbase client-ids', () => {
  it('creates, lists, restricts and revokes client IDs; keys list shows them as clientIds', async () => {
    const org = await json('orgs', 'create', '--name', 'Autocomplete Inc', '--plan', 'free');
    const created = await json('client-ids', 'create', '--org', org.id, '--name', 'website', '--referrer', 'Shop.Example', '--referrer', '*.brand.example,shop.example');
    expect(created).toMatchObject({ orgId: org.id, name: 'website', allowedReferrers: ['shop.example', '*.brand.example'], requireReferrer: false, revokedAt: null });
    expect(created.id).toMatch(CLIENT_ID_PATTERN);
    const open = await json('client-ids', 'create', '--org', org.id);
    expect(open).toMatchObject({ name: 'default', allowedReferrers: [], requireReferrer: false });

    const listed = await json('client-ids', 'list', '--org', org.id);
    expect(listed.clientIds.map((c: { id: string }) => c.id)).toEqual([created.id, open.id]);
    const text = await run('client-ids', 'list', '--org', org.id);
    expect(text).toContain(created.id);
    expect(text).toContain('shop.example,*.brand.example');

    const restricted = await json('client-ids', 'set-referrers', created.id, '--referrer', 'app.example', '--require-referrer');
    expect(restricted).toMatchObject({ id: created.id, allowedReferrers: ['app.example'], requireReferrer: true });

    const revoked = await json('client-ids', 'revoke', open.id);
    expect(revoked.revokedAt).toEqual(expect.any(String));

    const keys = await json('keys', 'list', '--org', org.id);
    expect(keys.keys).toEqual([]);
    expect(keys.clientIds).toEqual([
      expect.objectContaining({ id: created.id, allowedReferrers: ['app.example'], requireReferrer: true, revokedAt: null }),
      expect.objectContaining({ id: open.id, revokedAt: revoked.revokedAt }),
    ]);
  });

  it('refuses an unknown organization, a bad referrer pattern and an unknown client ID', async () => {
    await expect(run('client-ids', 'create', '--org', 'org_nope')).rejects.toThrow(/unknown organization: org_nope/);
    const org = await json('orgs', 'create', '--name', 'Strict Inc');
    await expect(run('client-ids', 'create', '--org', org.id, '--referrer', 'https://shop.example/')).rejects.toThrow(/not a host or \*\.host pattern: https:\/\/shop.example\//);
    await expect(run('client-ids', 'revoke', 'cid_aaaaaaaaaaaaaaaaaaaaaaaa')).rejects.toThrow(/unknown client ID/);
    await expect(run('client-ids', 'revoke', 'bb_live_x')).rejects.toThrow(/unknown client ID/);
    expect((await json('client-ids', 'list', '--org', org.id)).clientIds).toEqual([]);
  });
});
