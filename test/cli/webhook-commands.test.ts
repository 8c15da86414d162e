/**
 * `brandbase webhooks ...` (src/cli/webhook-commands.ts), run in-process through the real program on a temp SQLite
 * store: the same operations and rules as POST /graphql, `--json` printing one object, refusals as one line with
 * exit code 2.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildProgram } from '../../src/cli/program.js';

let dir: string;
const saved = { ...process.env };

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'brandbase-webhook-cli-'));
  process.env.BRANDBASE_DATA_DIR = dir;
  // An empty configuration file: the installation's own brandbase.env (if any) must not apply.
  process.env.BRANDBASE_CONFIG_FILE = path.join(dir, 'brandbase.env');
  await writeFile(process.env.BRANDBASE_CONFIG_FILE, '');
  delete process.env.BRANDBASE_DATABASE_URL;
  delete process.env.BRANDBASE_SECRET_KEY;
});
afterAll(async () => {
  process.env = saved;
  await rm(dir, { recursive: true, force: true });
});
afterEach(() => {
  process.exitCode = undefined;
});

/** Runs one command; returns what it printed and the exit code it set. */
async function run(...args: string[]): Promise<{ out: string; err: string; code: number }> {
  const out: string[] = [];
  const err: string[] = [];
  const log = vi.spyOn(console, 'log').mockImplementation((...parts: unknown[]) => void out.push(parts.join(' ')));
  const error = vi.spyOn(console, 'error').mockImplementation((...parts: unknown[]) => void err.push(parts.join(' ')));
  const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
  try {
    process.exitCode = undefined;
    await buildProgram().exitOverride().parseAsync(['node', 'brandbase', ...args]);
  } finally {
    log.mockRestore();
    error.mockRestore();
    stderr.mockRestore();
  }
  return { out: out.join('\n'), err: err.join('\n'), code: Number(process.exitCode ?? 0) };
}

async function json(...args: string[]): Promise<Record<string, any>> { // eslint-disable-line @typescript-eslint/no-explicit-any -- printed JSON
  const result = await run(...args, '--json');
  expect(result.code, result.err).toBe(0);
  expect(result.out.split('\n')).toHaveLength(1);
  return JSON.parse(result.out);
}

describe('brandbase webhooks', () => {
  it('creates, lists, updates, subscribes, tests, pages deliveries, rotates and deletes', async () => {
    const org = await json('orgs', 'create', '--name', 'Hooks Inc', '--plan', 'paid');
    const created = await json('webhooks', 'create', '--org', org.id, '--url', 'https://hooks.example.com/a', '--authorization', 'Bearer z', '--events', 'brand.rebranded');
    expect(created.secret).toMatch(/^whsec_/);
    expect(created.webhook).toMatchObject({ url: 'https://hooks.example.com/a', events: ['brand.rebranded'], enabled: true, hasAuthorization: true });
    const id: string = created.webhook.id;

    const listed = await json('webhooks', 'list', '--org', org.id);
    expect(listed.webhooks).toEqual([expect.objectContaining({ id })]);
    expect(JSON.stringify(listed)).not.toContain(created.secret);

    const updated = await json('webhooks', 'update', id, '--org', org.id, '--disable', '--no-authorization', '--name', 'Renamed');
    expect(updated).toMatchObject({ id, name: 'Renamed', enabled: false, disabledReason: 'manual', hasAuthorization: false });

    const subscribed = await json('webhooks', 'subscribe', id, 'www.acme.com', 'bad!', '--org', org.id);
    expect(subscribed).toMatchObject({ changed: ['acme.com'], invalid: [expect.objectContaining({ input: 'bad!' })], queued: ['acme.com'] });
    const unsubscribed = await json('webhooks', 'unsubscribe', id, 'acme.com', '--org', org.id);
    expect(unsubscribed.changed).toEqual(['acme.com']);

    const test = await json('webhooks', 'test', id, '--org', org.id);
    expect(test.delivery).toMatchObject({ kind: 'webhook.test', state: 'pending', domain: 'example.com', attemptCount: 0 });
    const deliveries = await json('webhooks', 'deliveries', id, '--org', org.id, '--first', '10');
    expect(deliveries).toMatchObject({ deliveries: [expect.objectContaining({ id: test.delivery.id, attempts: [] })], hasNextPage: false });

    const rotated = await json('webhooks', 'rotate-secret', id, '--org', org.id, '--expire-current-in', '0');
    expect(rotated.secret).not.toBe(created.secret);
    expect(rotated.previousSecretExpiresAt).toBeNull();

    expect(await json('webhooks', 'delete', id, '--org', org.id)).toEqual({ deletedWebhookId: id });
    expect((await json('webhooks', 'list', '--org', org.id)).webhooks).toEqual([]);
  });

  it('refuses like the API: free plan, unknown webhook, unknown organization, bad URL, too many domains', async () => {
    const free = await json('orgs', 'create', '--name', 'Free', '--plan', 'free');
    const refused = await run('webhooks', 'create', '--org', free.id, '--url', 'https://hooks.example.com/');
    expect(refused).toMatchObject({ code: 2, out: '', err: 'brandbase: Webhooks are available on paid plans only.' });

    const paid = await json('orgs', 'create', '--name', 'Paid', '--plan', 'paid');
    expect(await run('webhooks', 'delete', 'whk_missing', '--org', paid.id)).toMatchObject({ code: 2, err: 'brandbase: Webhook not found.' });
    expect(await run('webhooks', 'list', '--org', 'org_missing')).toMatchObject({ code: 2, err: 'brandbase: unknown organization org_missing' });
    expect((await run('webhooks', 'create', '--org', paid.id, '--url', 'http://hooks.example.com/')).err).toBe('brandbase: Invalid webhook URL: only https URLs are accepted.');

    const { webhook } = await json('webhooks', 'create', '--org', paid.id, '--url', 'https://hooks.example.com/');
    const domains = Array.from({ length: 1001 }, (_, i) => `b${i}.com`);
    expect((await run('webhooks', 'subscribe', webhook.id, ...domains, '--org', paid.id)).code).toBe(2);
    expect((await json('webhooks', 'deliveries', webhook.id, '--org', paid.id)).deliveries).toEqual([]);
  });
});
