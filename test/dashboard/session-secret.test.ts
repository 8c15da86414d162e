/**
 * The dashboard's signing secret (ADR 0043): without BRANDBASE_SESSION_SECRET every process on a store shares the
 * secret the first one generated there (a session signed by one verifies on another), a configured secret replaces
 * it (sessions signed otherwise are refused), and a short configured secret is refused at start.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/config.js';
import { noMailer } from '../../src/billing/mailer.js';
import { DashboardAccounts } from '../../src/dashboard-accounts/dashboard-accounts.js';
import { lazyDashboardKeys } from '../../src/dashboard-accounts/dashboard-secrets.js';
import { createLogger } from '../../src/platform/logger.js';
import type { DashboardAccountStore } from '../../src/dashboard-accounts/dashboard-account-store.js';
import type { BillingStore } from '../../src/billing/billing-store.js';
import { tempSqlite } from '../store/temp-database.js';

let migrate: () => Promise<void>;
let accounts: DashboardAccountStore;
let billing: BillingStore;
let cleanup: () => Promise<void>;
let orgId: string;

/** A "process": its own DashboardAccounts, with its own lazily resolved keys, over the shared store. */
function processOn(secret: string | null): DashboardAccounts {
  return new DashboardAccounts({ store: accounts, organizations: billing, keys: lazyDashboardKeys(accounts, secret), mailer: noMailer, logger: createLogger({ level: 'silent' }), publicUrl: 'http://brandbase.test' });
}

beforeAll(async () => {
  let stores: { dashboardAccounts: DashboardAccountStore; billing: BillingStore };
  ({ migrate, stores, cleanup } = await tempSqlite());
  accounts = stores.dashboardAccounts;
  billing = stores.billing;
  await migrate();
  orgId = (await billing.createOrganization({ id: 'org_secret', name: 'Secret', plan: 'free', quota: 0, createdAt: new Date() })).id;
  await processOn(null).addMember({ email: 'sam@example.com', orgId });
});
afterAll(async () => cleanup());

async function signIn(accounts: DashboardAccounts): Promise<string> {
  const token = new URL(await accounts.signInLink('sam@example.com')).searchParams.get('token') ?? '';
  const signedIn = await accounts.verifyLink(token, null);
  if (!signedIn) throw new Error('sign-in failed');
  return signedIn.token;
}

describe('the session signing secret', () => {
  it('is generated once in the store and shared by every process on it', async () => {
    const [one, two] = [processOn(null), processOn(null)];
    const jwt = await signIn(one);
    expect((await two.readSession(jwt))?.user.email).toBe('sam@example.com');
    // The CSRF token of a session is the same on both processes too.
    const sessionId = (await one.readSession(jwt))?.session.id ?? '';
    expect(await two.csrfToken(sessionId)).toBe(await one.csrfToken(sessionId));
  });

  it('a configured secret replaces it: sessions signed with another secret are refused', async () => {
    const configured = processOn('c'.repeat(40));
    const jwt = await signIn(configured);
    expect(await configured.readSession(jwt)).not.toBeNull();
    expect(await processOn(null).readSession(jwt)).toBeNull();
    expect(await processOn('d'.repeat(40)).readSession(jwt)).toBeNull();
  });

  it('refuses a configured secret shorter than 32 characters', () => {
    expect(() => loadConfig({ BRANDBASE_SESSION_SECRET: 'too short' })).toThrow('BRANDBASE_SESSION_SECRET must be at least 32 characters');
    expect(loadConfig({ BRANDBASE_SESSION_SECRET: 'x'.repeat(32) }).sessionSecret).toBe('x'.repeat(32));
    expect(loadConfig({}).sessionSecret).toBeNull();
  });
});
