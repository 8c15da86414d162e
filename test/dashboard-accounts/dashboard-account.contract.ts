/**
 * The dashboard account store's contract (moved out of the Store contract, issue 30; migration 0021, ADR 0043), on
 * every backend against a real database: users by email (one per address, first insert wins), memberships with roles, sign-in tokens used at most
 * once and never after expiry (concurrent uses included), wrong-code counts, sign-in request counts per key and
 * window, sessions listed and revoked by scope, and the generated secret written once.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DashboardSessionRecord, SignInTokenRecord } from '../../src/domain/dashboard-accounts.js';
import type { BillingStore } from '../../src/billing/billing-store.js';
import type { DashboardAccountStore } from '../../src/dashboard-accounts/dashboard-account-store.js';

const T0 = new Date('2026-03-04T05:06:07.123Z');
const at = (ms: number): Date => new Date(T0.getTime() + ms);
const id = (prefix: string): string => `${prefix}_${randomBytes(8).toString('hex')}`;

/** `store`: the organizations a membership names (billing's), and the migrations. */
export function dashboardAccountContract(name: string, open: () => Promise<{ migrate(): Promise<void>; stores: { dashboardAccounts: DashboardAccountStore; billing: BillingStore }; cleanup: () => Promise<void> }>): void {
  describe(`dashboard account store contract: ${name}`, () => {
    let migrate: () => Promise<void>;
    let accounts: DashboardAccountStore;
    let billing: BillingStore;
    let cleanup: () => Promise<void>;

    beforeAll(async () => {
      let stores: { dashboardAccounts: DashboardAccountStore; billing: BillingStore };
      ({ migrate, stores, cleanup } = await open());
      accounts = stores.dashboardAccounts;
      billing = stores.billing;
      await migrate();
    });
    afterAll(async () => {
      await cleanup();
    });

    async function org(orgName = 'Widgets'): Promise<string> {
      return (await billing.createOrganization({ id: id('org'), name: orgName, plan: 'free', quota: 0, createdAt: T0 })).id;
    }

    async function user(email = `${id('u')}@example.com`) {
      return accounts.createDashboardUser({ id: id('usr'), email, createdAt: T0 });
    }

    function token(userId: string, overrides: Partial<SignInTokenRecord> = {}): SignInTokenRecord {
      return { id: id('sit'), userId, linkHash: randomBytes(16).toString('hex'), codeHash: 'mac', createdAt: at(0), expiresAt: at(60_000), usedAt: null, failedCodes: 0, ...overrides };
    }

    function session(userId: string, overrides: Partial<DashboardSessionRecord> = {}): DashboardSessionRecord {
      return { id: id('ses'), userId, createdAt: at(0), lastSeenAt: at(0), expiresAt: at(3_600_000), revokedAt: null, userAgent: 'Firefox ✓', ...overrides };
    }

    it('keeps one user per email: a second insert returns the first user', async () => {
      const first = await user('same@example.com');
      const second = await accounts.createDashboardUser({ id: id('usr'), email: 'same@example.com', createdAt: at(5) });
      expect(second).toEqual(first);
      expect(await accounts.findDashboardUserByEmail('same@example.com')).toEqual(first);
      expect(await accounts.getDashboardUser(first.id)).toEqual({ id: first.id, email: 'same@example.com', createdAt: T0 });
      expect(await accounts.findDashboardUserByEmail('other@example.com')).toBeNull();
    });

    it('adds memberships, changes a role in place, lists members by organization, removes them', async () => {
      const [a, b] = [await org('A'), await org('B')];
      const u = await user('member@example.com');
      const v = await user('another@example.com');
      await accounts.setDashboardMembership({ userId: u.id, orgId: a, role: 'member', createdAt: at(1) });
      await accounts.setDashboardMembership({ userId: u.id, orgId: a, role: 'owner', createdAt: at(2) });
      await accounts.setDashboardMembership({ userId: u.id, orgId: b, role: 'member', createdAt: at(3) });
      await accounts.setDashboardMembership({ userId: v.id, orgId: a, role: 'member', createdAt: at(4) });
      expect(await accounts.dashboardMembership(u.id, a)).toEqual({ userId: u.id, orgId: a, role: 'owner', createdAt: at(1) });
      expect((await accounts.dashboardMemberships(u.id)).map((m) => m.orgId).sort()).toEqual([a, b].sort());
      expect((await accounts.listDashboardMembers(a)).map((m) => [m.user.email, m.role])).toEqual([
        ['another@example.com', 'member'],
        ['member@example.com', 'owner'],
      ]);
      expect(await accounts.removeDashboardMembership(u.id, b)).toBe(true);
      expect(await accounts.removeDashboardMembership(u.id, b)).toBe(false);
      expect(await accounts.dashboardMembership(u.id, b)).toBeNull();
    });

    it('deletes a user with memberships, tokens and sessions', async () => {
      const o = await org();
      const u = await user();
      await accounts.setDashboardMembership({ userId: u.id, orgId: o, role: 'member', createdAt: T0 });
      const t = token(u.id);
      await accounts.insertSignInToken(t);
      const s = session(u.id);
      await accounts.insertDashboardSession(s);
      expect(await accounts.deleteDashboardUser(u.id)).toBe(true);
      expect(await accounts.getDashboardUser(u.id)).toBeNull();
      expect(await accounts.listDashboardMembers(o)).toEqual([]);
      expect(await accounts.findSignInTokenByLinkHash(t.linkHash)).toBeNull();
      expect(await accounts.getDashboardSession(s.id)).toBeNull();
      expect(await accounts.deleteDashboardUser(u.id)).toBe(false);
    });

    it('uses a sign-in token once, never after expiry, and one of concurrent uses wins', async () => {
      const u = await user();
      const t = token(u.id);
      await accounts.insertSignInToken(t);
      expect(await accounts.findSignInTokenByLinkHash(t.linkHash)).toEqual(t);
      expect(await accounts.latestSignInToken(u.id, at(1))).toEqual(t);
      const wins = await Promise.all(Array.from({ length: 5 }, () => accounts.useSignInToken(t.id, at(10))));
      expect(wins.filter(Boolean)).toHaveLength(1);
      expect((await accounts.findSignInTokenByLinkHash(t.linkHash))?.usedAt).toEqual(at(10));
      expect(await accounts.latestSignInToken(u.id, at(11))).toBeNull();
      const late = token(u.id);
      await accounts.insertSignInToken(late);
      expect(await accounts.useSignInToken(late.id, at(60_000))).toBe(false);
      expect(await accounts.latestSignInToken(u.id, at(60_000))).toBeNull();
    });

    it('returns the newest live token and counts codes tried on a live one', async () => {
      const u = await user();
      const old = token(u.id, { createdAt: at(0) });
      const newer = token(u.id, { createdAt: at(1000) });
      await accounts.insertSignInToken(old);
      await accounts.insertSignInToken(newer);
      expect((await accounts.latestSignInToken(u.id, at(2000)))?.id).toBe(newer.id);
      expect(await accounts.countSignInCodeTry(newer.id, at(2000))).toBe(1);
      expect(await accounts.countSignInCodeTry(newer.id, at(2000))).toBe(2);
      expect((await accounts.latestSignInToken(u.id, at(2000)))?.failedCodes).toBe(2);
      // Concurrent tries are counted one by one: each sees a count of its own.
      const tries = await Promise.all(Array.from({ length: 8 }, () => accounts.countSignInCodeTry(newer.id, at(2000))));
      expect([...tries].sort((a, b) => (a ?? 0) - (b ?? 0))).toEqual([3, 4, 5, 6, 7, 8, 9, 10]);
      // A used, expired or unknown token counts nothing.
      expect(await accounts.countSignInCodeTry(newer.id, at(60_000))).toBeNull();
      expect(await accounts.useSignInToken(newer.id, at(2001))).toBe(true);
      expect(await accounts.countSignInCodeTry(newer.id, at(2002))).toBeNull();
      expect(await accounts.countSignInCodeTry(id('sit'), at(2002))).toBeNull();
    });

    it('admits sign-in requests per key up to the limit within the window, counts only admitted ones, and forgets them on request', async () => {
      const [k1, k2] = [id('k'), id('k')];
      expect(await accounts.admitSignInRequest(k1, 2, at(0), at(-1000))).toBe(true);
      expect(await accounts.admitSignInRequest(k1, 2, at(100), at(-900))).toBe(true);
      expect(await accounts.admitSignInRequest(k2, 2, at(100), at(-900))).toBe(true);
      // Refused requests do not count: the first admitted one falls out of the window and one more is admitted.
      for (let i = 0; i < 5; i++) expect(await accounts.admitSignInRequest(k1, 2, at(200), at(-800))).toBe(false);
      expect(await accounts.admitSignInRequest(k1, 2, at(1001), at(1))).toBe(true);
      expect(await accounts.admitSignInRequest(k1, 2, at(1002), at(2))).toBe(false);
      await accounts.forgetSignInRequests([k1]);
      expect(await accounts.admitSignInRequest(k1, 2, at(1003), at(3))).toBe(true);
      await accounts.forgetSignInRequests([]);
    });

    it('never admits more than the limit to concurrent requests', async () => {
      const k = id('k');
      const admitted = await Promise.all(Array.from({ length: 12 }, () => accounts.admitSignInRequest(k, 3, at(0), at(-1000))));
      const n = admitted.filter(Boolean).length;
      expect(n).toBeLessThanOrEqual(3);
      // Whatever the interleaving, the admitted ones are all that count: the rest of the limit is still there.
      for (let i = n; i < 3; i++) expect(await accounts.admitSignInRequest(k, 3, at(1), at(-999))).toBe(true);
      expect(await accounts.admitSignInRequest(k, 3, at(2), at(-998))).toBe(false);
    });

    it('lists live sessions newest first, touches them, and revokes one, all but one, or all', async () => {
      const u = await user();
      const other = await user();
      const [s1, s2, s3] = [session(u.id, { createdAt: at(1) }), session(u.id, { createdAt: at(2) }), session(u.id, { createdAt: at(3), userAgent: null })];
      const expired = session(u.id, { expiresAt: at(10) });
      const theirs = session(other.id);
      for (const s of [s1, s2, s3, expired, theirs]) await accounts.insertDashboardSession(s);
      expect((await accounts.listDashboardSessions(u.id, at(100))).map((s) => s.id)).toEqual([s3.id, s2.id, s1.id]);
      await accounts.touchDashboardSession(s1.id, at(50));
      expect((await accounts.getDashboardSession(s1.id))?.lastSeenAt).toEqual(at(50));
      expect(await accounts.getDashboardSession(s3.id)).toEqual(s3);
      // Another user's session is out of scope, whatever id is named.
      expect(await accounts.revokeDashboardSessions(u.id, at(100), { sessionId: theirs.id })).toBe(0);
      expect(await accounts.revokeDashboardSessions(u.id, at(100), { sessionId: s1.id })).toBe(1);
      expect(await accounts.revokeDashboardSessions(u.id, at(100), { sessionId: s1.id })).toBe(0);
      expect((await accounts.getDashboardSession(s1.id))?.revokedAt).toEqual(at(100));
      expect(await accounts.revokeDashboardSessions(u.id, at(200), { except: s3.id })).toBe(1);
      expect((await accounts.listDashboardSessions(u.id, at(200))).map((s) => s.id)).toEqual([s3.id]);
      expect(await accounts.revokeDashboardSessions(u.id, at(300))).toBe(1);
      expect(await accounts.listDashboardSessions(u.id, at(300))).toEqual([]);
      expect((await accounts.getDashboardSession(theirs.id))?.revokedAt).toBeNull();
    });

    it('writes the generated secret once: the first candidate wins', async () => {
      const name = id('secret');
      const results = await Promise.all(['one', 'two', 'three'].map((candidate) => accounts.dashboardSecret(name, candidate, T0)));
      expect(new Set(results).size).toBe(1);
      expect(await accounts.dashboardSecret(name, 'later', at(1))).toBe(results[0]);
    });
  });
}
