/**
 * `brandbase users add|list|remove|link` and `brandbase sessions revoke` (src/cli/user-commands.ts), run in-process
 * through the real program on a temp SQLite store; what they write is what the dashboard reads (the sign-in link
 * they print signs in on a service over the same store, and a revoked session no longer opens pages).
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildProgram } from '../../src/cli/program.js';
import { loadConfig } from '../../src/config/config.js';
import { buildApp } from '../../src/http/app.js';
import { appDepsFor } from '../../src/main/app-deps.js';
import { createServices, type Services } from '../../src/main/services.js';
import { createLogger } from '../../src/platform/logger.js';
import { form, FORM, sessionCookieOf } from '../helpers/dashboard-sign-in.js';

let dir: string;
const saved = { ...process.env };

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'brandbase-user-cli-'));
  process.env.BRANDBASE_DATA_DIR = dir;
  process.env.BRANDBASE_PUBLIC_URL = 'http://brandbase.test';
  process.env.BRANDBASE_CONFIG_FILE = path.join(dir, 'brandbase.env');
  await writeFile(process.env.BRANDBASE_CONFIG_FILE, '');
  delete process.env.BRANDBASE_DATABASE_URL;
  delete process.env.BRANDBASE_SESSION_SECRET;
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
  return JSON.parse(await run(...args, '--json'));
}

async function withService<T>(fn: (services: Services, app: Awaited<ReturnType<typeof buildApp>>) => Promise<T>): Promise<T> {
  const services = await createServices(loadConfig({ BRANDBASE_DATA_DIR: dir, BRANDBASE_PUBLIC_URL: 'http://brandbase.test' }), createLogger({ level: 'silent' }));
  const app = await buildApp(appDepsFor(services));
  try {
    return await fn(services, app);
  } finally {
    await app.close();
    await services.close();
  }
}

describe('brandbase users and sessions', () => {
  it('adds, lists and removes members; prints a sign-in link that works once; revokes sessions', async () => {
    const org = (await json('orgs', 'create', '--name', 'Acme')) as { id: string };
    const other = (await json('orgs', 'create', '--name', 'Other')) as { id: string };
    expect(await run('users', 'add', 'Ann@Example.com', '--org', org.id, '--role', 'owner')).toBe(`ann@example.com is an owner of ${org.id}`);
    await run('users', 'add', 'ann@example.com', '--org', other.id);
    await run('users', 'add', 'ben@example.com', '--org', org.id);
    const listed = await json('users', 'list', '--org', org.id);
    expect(listed.users.map((u: { email: string; role: string }) => [u.email, u.role])).toEqual([
      ['ann@example.com', 'owner'],
      ['ben@example.com', 'member'],
    ]);
    expect((await json('users', 'list')).users).toHaveLength(3);

    const { link } = (await json('users', 'link', 'ann@example.com')) as { link: string };
    expect(link).toMatch(/^http:\/\/brandbase\.test\/dashboard\/sign-in\/verify\?token=[\w-]+$/);
    const token = new URL(link).searchParams.get('token') ?? '';
    const cookie = await withService(async (_services, app) => {
      const signedIn = await app.inject({ method: 'POST', url: '/dashboard/sign-in/verify', headers: FORM, payload: form({ token }) });
      expect(signedIn.statusCode).toBe(303);
      const again = await app.inject({ method: 'POST', url: '/dashboard/sign-in/verify', headers: FORM, payload: form({ token }) });
      expect(again.statusCode).toBe(400);
      const value = sessionCookieOf(signedIn.headers['set-cookie']) ?? '';
      expect((await app.inject({ method: 'GET', url: `/dashboard/orgs/${org.id}`, headers: { cookie: value } })).statusCode).toBe(200);
      return value;
    });

    expect(await json('sessions', 'revoke', 'ann@example.com')).toEqual({ revoked: 1 });
    await withService(async (_services, app) => {
      expect((await app.inject({ method: 'GET', url: `/dashboard/orgs/${org.id}`, headers: { cookie } })).statusCode).toBe(303);
    });

    expect(await run('users', 'remove', 'ann@example.com', '--org', other.id)).toBe(`removed ann@example.com from ${other.id}`);
    expect((await json('users', 'list', '--org', other.id)).users).toEqual([]);
    await run('users', 'remove', 'ben@example.com');
    expect((await json('users', 'list')).users.map((u: { email: string }) => u.email)).toEqual(['ann@example.com']);
  });

  it('refuses a bad email, role, organization or unknown user with a one-line error', async () => {
    const org = (await json('orgs', 'create', '--name', 'Refusals')) as { id: string };
    await expect(run('users', 'add', 'not-an-email', '--org', org.id)).rejects.toThrow('Not an email address.');
    await expect(run('users', 'add', 'a@example.com', '--org', org.id, '--role', 'admin')).rejects.toThrow('Role must be owner or member.');
    await expect(run('users', 'add', 'a@example.com', '--org', 'org_nope')).rejects.toThrow('No organization with id org_nope.');
    await expect(run('users', 'remove', 'nobody@example.com')).rejects.toThrow('No user with this email.');
    await expect(run('sessions', 'revoke', 'nobody@example.com')).rejects.toThrow('No user with this email.');
  });
});
