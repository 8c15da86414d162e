/**
 * The README's walk-through, run as written: the shell block under "## Walk-through" is executed by bash against a
 * real `brandbase serve` (the built program), with the brands it names served by the fixture sites through the
 * crawler's host map (no internet). If the README and the product drift apart, this fails.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INSTALL_DIR } from '../../src/config/config.js';
import { startFixtureSites, type FixtureSites } from '../helpers/fixture-sites.js';
import { startServer, type ServerProcess } from '../helpers/brandbase-process.js';

/** The first ```sh block after the "## Walk-through" heading. */
function walkThrough(): string {
  const readme = readFileSync(path.join(INSTALL_DIR, 'README.md'), 'utf8');
  const section = readme.split(/^## Walk-through$/m)[1] ?? '';
  const block = /```sh\n([\s\S]*?)```/.exec(section)?.[1];
  if (!block) throw new Error('README.md has no ```sh block under "## Walk-through"');
  return block;
}

function bash(script: string, env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const options = { cwd: INSTALL_DIR, env: { ...process.env, ...env }, timeout: 120_000, maxBuffer: 16 * 1024 * 1024 };
    execFile('bash', ['-euo', 'pipefail', '-c', script], options, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr });
    });
  });
}

let sites: FixtureSites;
let server: ServerProcess | undefined;
let dataDir: string;
let env: Record<string, string>;

beforeAll(async () => {
  sites = await startFixtureSites();
  dataDir = await mkdtemp(path.join(tmpdir(), 'brandbase-readme-'));
  // The brands the walk-through names, each served by a fixture site.
  const hostMap = { ...sites.hostMap, 'stripe.com': sites.hostMap['northwind.test'], 'github.com': sites.hostMap['lumen.test'] };
  env = { BRANDBASE_DATA_DIR: dataDir, BRANDBASE_CRAWL_HOSTS: JSON.stringify(hostMap), BRANDBASE_KEY_CACHE_MS: '0', BRANDBASE_LOG_LEVEL: 'warn' };
}, 120_000);

afterAll(async () => {
  server?.child.kill('SIGKILL');
  await server?.exited;
  await sites?.close();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

describe('README walk-through', () => {
  it('runs end to end as written', async () => {
    server = await startServer(env);
    const script = walkThrough().replaceAll('localhost:8787', server.baseUrl.replace('http://', ''));
    const result = await bash(script, env);
    expect(result.stderr).not.toMatch(/command not found|No such file/);
    expect(result.code, result.stderr).toBe(0);
    // Step 2: the brand, live-indexed from its site, then the same brand for its URL and an email address.
    const brands = result.stdout.match(/"domain":"stripe\.com"/g) ?? [];
    expect(brands.length).toBeGreaterThanOrEqual(3);
    // cachedOnly for a brand not held: 204, no body.
    expect(result.stdout).toMatch(/HTTP\/1\.1 204/);
    // Batch: held, queued and unmatched items; HEAD prefetch: crawl queued; the viewer: the key's identity.
    expect(result.stdout).toContain('"results"');
    expect(result.stdout).toMatch(/HTTP\/1\.1 20[02]/);
    expect(result.stdout).toContain('"type":"api-key"');
  }, 180_000);
});
