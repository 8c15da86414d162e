/**
 * Security of dashboard sign-in and sessions (issue 23) through inject on the real service and a real SMTP server:
 * CSRF, session fixation, another organization's pages, sign-in link reuse and expiry, the sign-in rate limit,
 * revoked sessions on the pages and on /v2/viewer, cookie flags, and account enumeration.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { createSmtpMailer, noMailer } from '../../src/billing/mailer.js';
import { DashboardAccounts } from '../../src/dashboard-accounts/dashboard-accounts.js';
import { lazyDashboardKeys, type DashboardKeys } from '../../src/dashboard-accounts/dashboard-secrets.js';
import { MAX_FAILED_CODES, SIGN_IN_PER_ADDRESS, SIGN_IN_PER_EMAIL, SIGN_IN_TOKEN_TTL_MS, SIGN_IN_WINDOW_MS } from '../../src/dashboard-accounts/sign-in-rules.js';
import { buildApp } from '../../src/http/app.js';
import { appDepsFor } from '../../src/main/app-deps.js';
import { startSmtpSink, type SmtpSink } from '../billing/smtp-sink.js';
import {
  addMember,
  csrfTokenOf,
  form,
  FORM,
  requestSignInEmail,
  sessionCookieOf,
  signInSecrets,
  signInThroughEmail,
  someClientAddress,
} from '../helpers/dashboard-sign-in.js';
import { bearer, startTestStack, type TestStack } from '../helpers/test-stack.js';
import { describeEachBackend } from '../helpers/backends.js';

/** The keys with every code MAC counted (issuing an email computes one too; a code check computes one). */
function countingCodeMacs(keys: () => Promise<DashboardKeys>, count: () => void): () => Promise<DashboardKeys> {
  return async () => {
    const real = await keys();
    return {
      jwt: real.jwt,
      mac: (purpose, value) => {
        if (purpose === 'code') count();
        return real.mac(purpose, value);
      },
    };
  };
}

describeEachBackend('dashboard security', (backend) => {
  let smtp: SmtpSink;
  let stack: TestStack;
  /** The app under test runs on a clock the test moves (sign-in expiry); everything else is the real service. */
  let app: FastifyInstance;
  let clock = Date.now();
  let orgA: string;
  let orgB: string;
  /** Sign-in codes the service has checked (a MAC of a code computed against a stored one), counted for the race test. */
  let codeMacs = 0;

  beforeAll(async () => {
    smtp = await startSmtpSink();
    stack = await startTestStack({ BRANDBASE_SMTP_URL: smtp.url }, { backend });
    const { services } = stack;
    const dashboard = new DashboardAccounts({
      store: services.stores.dashboardAccounts,
      organizations: services.stores.billing,
      keys: countingCodeMacs(lazyDashboardKeys(services.stores.dashboardAccounts, null), () => codeMacs++),
      mailer: createSmtpMailer(smtp.url, 'Brandbase <test@localhost>'),
      logger: services.logger,
      publicUrl: services.config.publicUrl,
      now: () => new Date(clock),
    });
    app = await buildApp({ ...appDepsFor(services), dashboard });
    await app.ready();
    orgA = (await services.accounts.createOrganization({ name: 'Org A', plan: 'paid', quota: 100 })).id;
    orgB = (await services.accounts.createOrganization({ name: 'Org B <script>', plan: 'paid', quota: 100 })).id;
    await addMember(services, orgA, 'alice@example.com', 'owner');
    await addMember(services, orgB, 'bob@example.com', 'owner');
    // Tests that only need some account use their own, so the per-email limit of one never trips another test.
    await addMember(services, orgA, 'carol@example.com');
    await addMember(services, orgA, 'erin@example.com');
    await services.accounts.createApiKey({ orgId: orgB, name: 'Bob secret key name' });
  });
  afterAll(async () => {
    await app?.close();
    await stack?.close();
    await smtp?.close();
  });

  async function keyNames(orgId: string): Promise<string[]> {
    return (await stack.services.accounts.listApiKeys(orgId)).map((k) => k.name);
  }

  describe('sign-in', () => {
    it('signs in through the emailed link; the cookie is HttpOnly, SameSite=Lax, Path=/ (Secure only on https)', async () => {
      const mail = await requestSignInEmail(app, smtp, 'alice@example.com');
      const { token } = signInSecrets(mail);
      // Opening the link signs nobody in (mail scanners open links): it shows a button that posts the token.
      const opened = await app.inject({ method: 'GET', url: `/dashboard/sign-in/verify?token=${token}` });
      expect(opened.statusCode).toBe(200);
      expect(sessionCookieOf(opened.headers['set-cookie'])).toBeNull();
      const res = await app.inject({ method: 'POST', url: '/dashboard/sign-in/verify', headers: FORM, payload: form({ token }) });
      expect(res.statusCode).toBe(303);
      expect(res.headers.location).toBe('/dashboard');
      const setCookie = [res.headers['set-cookie']].flat().find((c) => c?.startsWith('bb_session=')) ?? '';
      expect(setCookie).toMatch(/; HttpOnly/);
      expect(setCookie).toMatch(/; SameSite=Lax/);
      expect(setCookie).toMatch(/; Path=\//);
      expect(setCookie).not.toMatch(/Secure/); // the test's public URL is http
      const picker = await app.inject({ method: 'GET', url: '/dashboard', headers: { cookie: sessionCookieOf(res.headers['set-cookie']) ?? '' } });
      expect(picker.statusCode).toBe(200);
      expect(picker.body).toContain('Org A');
      expect(picker.headers['cache-control']).toBe('no-store');
      expect(picker.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    });

    it('adds Secure to the cookies when the public URL is https', async () => {
      const secure = await buildApp({ ...appDepsFor(stack.services), publicUrl: 'https://brandbase.test' });
      try {
        const { token } = signInSecrets(await requestSignInEmail(app, smtp, 'carol@example.com'));
        const res = await secure.inject({ method: 'POST', url: '/dashboard/sign-in/verify', headers: FORM, payload: form({ token }) });
        expect(res.statusCode).toBe(303);
        const setCookie = [res.headers['set-cookie']].flat().find((c) => c?.startsWith('bb_session=')) ?? '';
        expect(setCookie).toMatch(/; HttpOnly; SameSite=Lax; Secure$/);
      } finally {
        await secure.close();
      }
    });

    it('signs in with the emailed code too; a wrong code is refused', async () => {
      const mail = await requestSignInEmail(app, smtp, 'alice@example.com');
      const { code } = signInSecrets(mail);
      const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, '0');
      const refused = await app.inject({ method: 'POST', url: '/dashboard/sign-in/code', headers: FORM, payload: form({ email: 'alice@example.com', code: wrong }), remoteAddress: someClientAddress() });
      expect(refused.statusCode).toBe(400);
      const res = await app.inject({ method: 'POST', url: '/dashboard/sign-in/code', headers: FORM, payload: form({ email: 'Alice@Example.com', code }), remoteAddress: someClientAddress() });
      expect(res.statusCode).toBe(303);
      expect(sessionCookieOf(res.headers['set-cookie'])).not.toBeNull();
    });

    it('a sign-in link works once: the second use is refused', async () => {
      const { token } = signInSecrets(await requestSignInEmail(app, smtp, 'alice@example.com'));
      const first = await app.inject({ method: 'POST', url: '/dashboard/sign-in/verify', headers: FORM, payload: form({ token }) });
      expect(first.statusCode).toBe(303);
      const second = await app.inject({ method: 'POST', url: '/dashboard/sign-in/verify', headers: FORM, payload: form({ token }) });
      expect(second.statusCode).toBe(400);
      expect(second.body).toContain('used already or has expired');
      expect(sessionCookieOf(second.headers['set-cookie'])).toBeNull();
    });

    it('a sign-in link and code expire after 15 minutes', async () => {
      const { token, code } = signInSecrets(await requestSignInEmail(app, smtp, 'alice@example.com'));
      clock += SIGN_IN_TOKEN_TTL_MS + 1000;
      try {
        const byLink = await app.inject({ method: 'POST', url: '/dashboard/sign-in/verify', headers: FORM, payload: form({ token }) });
        expect(byLink.statusCode).toBe(400);
        const byCode = await app.inject({ method: 'POST', url: '/dashboard/sign-in/code', headers: FORM, payload: form({ email: 'alice@example.com', code }), remoteAddress: someClientAddress() });
        expect(byCode.statusCode).toBe(400);
      } finally {
        clock = Date.now();
      }
    });

    it('answers an unknown address exactly like a known one, and mails it nothing', async () => {
      const known = await app.inject({ method: 'POST', url: '/dashboard/sign-in', headers: FORM, payload: form({ email: 'carol@example.com' }), remoteAddress: someClientAddress() });
      const unknown = await app.inject({ method: 'POST', url: '/dashboard/sign-in', headers: FORM, payload: form({ email: 'nobody@example.com' }), remoteAddress: someClientAddress() });
      expect(unknown.statusCode).toBe(known.statusCode);
      expect(unknown.headers.location).toBe(known.headers.location);
      // The known address's email arrives; by then the unknown one's would have been sent too.
      await requestSignInEmail(app, smtp, 'carol@example.com');
      expect(smtp.messages.some((m) => m.to.includes('nobody@example.com'))).toBe(false);
    });

    it('limits sign-in emails per email address: past the limit no email is sent, and the check page says to use the newest', async () => {
      const email = 'limited@example.com';
      await addMember(stack.services, orgA, email);
      for (let i = 0; i < SIGN_IN_PER_EMAIL; i++) await requestSignInEmail(app, smtp, email);
      const sent = smtp.messages.filter((m) => m.to.includes(email)).length;
      const res = await app.inject({ method: 'POST', url: '/dashboard/sign-in', headers: FORM, payload: form({ email }), remoteAddress: someClientAddress() });
      expect(res.statusCode).toBe(303);
      expect(res.headers.location).toBe('/dashboard/sign-in/check');
      const notice = /bb_notice=[^;]+/.exec(String(res.headers['set-cookie']))?.[0];
      expect(notice).toBeDefined();
      const check = await app.inject({ method: 'GET', url: '/dashboard/sign-in/check', headers: { cookie: notice ?? '' } });
      expect(check.body).toContain('No new email was sent');
      // An unknown address is limited the same way (the limit tells nothing about accounts).
      for (let i = 0; i < SIGN_IN_PER_EMAIL; i++) await app.inject({ method: 'POST', url: '/dashboard/sign-in', headers: FORM, payload: form({ email: 'ghost@example.com' }), remoteAddress: someClientAddress() });
      const ghost = await app.inject({ method: 'POST', url: '/dashboard/sign-in', headers: FORM, payload: form({ email: 'ghost@example.com' }), remoteAddress: someClientAddress() });
      expect(ghost.statusCode).toBe(res.statusCode);
      expect(ghost.headers.location).toBe(res.headers.location);
      expect(String(ghost.headers['set-cookie'])).toContain('bb_notice=');
      // Give a late email every chance to arrive: none does.
      await requestSignInEmail(app, smtp, 'carol@example.com');
      expect(smtp.messages.filter((m) => m.to.includes(email)).length).toBe(sent);
    });

    describe('nobody can lock another person out of sign-in (issue 33)', () => {
      it("an address that exhausts its own limit asking for the victim's email is refused without counting against the victim", async () => {
        const victim = 'victim-address@example.com';
        await addMember(stack.services, orgA, victim);
        const attacker = someClientAddress();
        let accepted = 0;
        for (let i = 0; i < SIGN_IN_PER_ADDRESS + 10; i++) {
          const res = await app.inject({ method: 'POST', url: '/dashboard/sign-in', headers: FORM, payload: form({ email: `spray-${i}@example.com` }), remoteAddress: attacker });
          if (res.statusCode === 303) accepted++;
          else expect(res.statusCode).toBe(429);
        }
        expect(accepted).toBe(SIGN_IN_PER_ADDRESS);
        // The attacker's address is spent: its requests for the victim are refused, and none counts against the victim.
        for (let i = 0; i < SIGN_IN_PER_EMAIL * 2; i++) {
          const res = await app.inject({ method: 'POST', url: '/dashboard/sign-in', headers: FORM, payload: form({ email: victim }), remoteAddress: attacker });
          expect(res.statusCode).toBe(429);
        }
        // The victim, from their own address, gets a fresh email every time up to the per-email limit, and signs in.
        for (let i = 0; i < SIGN_IN_PER_EMAIL - 1; i++) await requestSignInEmail(app, smtp, victim);
        const { token } = signInSecrets(await requestSignInEmail(app, smtp, victim));
        const signedIn = await app.inject({ method: 'POST', url: '/dashboard/sign-in/verify', headers: FORM, payload: form({ token }) });
        expect(signedIn.statusCode).toBe(303);
        expect(sessionCookieOf(signedIn.headers['set-cookie'])).not.toBeNull();
      });

      it("asking for the victim's email from many addresses past its limit does not stop the victim signing in with the newest email", async () => {
        const victim = 'victim-many@example.com';
        await addMember(stack.services, orgA, victim);
        const before = smtp.messages.filter((m) => m.to.includes(victim)).length;
        // The code form checks the newest email's code: the clock moves a millisecond per email so "newest" is one.
        for (let i = 0; i < SIGN_IN_PER_EMAIL; i++) {
          clock += 1;
          await requestSignInEmail(app, smtp, victim);
        }
        for (let i = 0; i < SIGN_IN_PER_EMAIL * 3; i++) {
          const res = await app.inject({ method: 'POST', url: '/dashboard/sign-in', headers: FORM, payload: form({ email: victim }), remoteAddress: someClientAddress() });
          expect(res.statusCode).toBe(303);
        }
        // The victim asks too, from their own address: not a 429 page, the check page, no new email...
        const own = someClientAddress();
        const asked = await app.inject({ method: 'POST', url: '/dashboard/sign-in', headers: FORM, payload: form({ email: victim }), remoteAddress: own });
        expect(asked.statusCode).toBe(303);
        expect(asked.headers.location).toBe('/dashboard/sign-in/check');
        const mails = smtp.messages.filter((m) => m.to.includes(victim));
        expect(mails.length - before).toBe(SIGN_IN_PER_EMAIL);
        // ...and the newest email's code signs them in.
        const { code } = signInSecrets(mails[mails.length - 1] as (typeof mails)[number]);
        const signedIn = await app.inject({ method: 'POST', url: '/dashboard/sign-in/code', headers: FORM, payload: form({ email: victim, code }), remoteAddress: own });
        expect(signedIn.statusCode).toBe(303);
        expect(sessionCookieOf(signedIn.headers['set-cookie'])).not.toBeNull();
        // A completed sign-in starts the email's count afresh: the next request mails again.
        await requestSignInEmail(app, smtp, victim);
      });

      it('requests held back by the per-email limit do not extend it: after the window new emails go out again', async () => {
        const victim = 'victim-window@example.com';
        await addMember(stack.services, orgA, victim);
        for (let i = 0; i < SIGN_IN_PER_EMAIL; i++) await requestSignInEmail(app, smtp, victim);
        const sent = smtp.messages.filter((m) => m.to.includes(victim)).length;
        const start = clock;
        try {
          // Somebody keeps asking all through the window...
          for (let minute = 1; minute < SIGN_IN_WINDOW_MS / 60_000; minute++) {
            clock = start + minute * 60_000;
            await app.inject({ method: 'POST', url: '/dashboard/sign-in', headers: FORM, payload: form({ email: victim }), remoteAddress: someClientAddress() });
          }
          expect(smtp.messages.filter((m) => m.to.includes(victim)).length).toBe(sent);
          // ...and still, once the window has passed, the victim gets a new email.
          clock = start + SIGN_IN_WINDOW_MS + 1;
          const { token } = signInSecrets(await requestSignInEmail(app, smtp, victim));
          const signedIn = await app.inject({ method: 'POST', url: '/dashboard/sign-in/verify', headers: FORM, payload: form({ token }) });
          expect(signedIn.statusCode).toBe(303);
        } finally {
          clock = start;
        }
      });

      it("guessing at the victim's code uses up the code, never the link", async () => {
        const victim = 'victim-guessed@example.com';
        await addMember(stack.services, orgA, victim);
        const { code, token } = signInSecrets(await requestSignInEmail(app, smtp, victim));
        const wrong = String((Number(code) + 11) % 1_000_000).padStart(6, '0');
        for (let i = 0; i < MAX_FAILED_CODES + 3; i++) {
          const res = await app.inject({ method: 'POST', url: '/dashboard/sign-in/code', headers: FORM, payload: form({ email: victim, code: wrong }), remoteAddress: someClientAddress() });
          expect(res.statusCode).toBe(400);
        }
        const right = await app.inject({ method: 'POST', url: '/dashboard/sign-in/code', headers: FORM, payload: form({ email: victim, code }), remoteAddress: someClientAddress() });
        expect(right.statusCode).toBe(400);
        const signedIn = await app.inject({ method: 'POST', url: '/dashboard/sign-in/verify', headers: FORM, payload: form({ token }) });
        expect(signedIn.statusCode).toBe(303);
        expect(sessionCookieOf(signedIn.headers['set-cookie'])).not.toBeNull();
      });

      it(`concurrent guesses get ${MAX_FAILED_CODES} code checks between them, not one each`, async () => {
        const victim = 'victim-race@example.com';
        await addMember(stack.services, orgA, victim);
        const { code, token } = signInSecrets(await requestSignInEmail(app, smtp, victim));
        const guesses = Array.from({ length: 30 }, (_, i) => String((Number(code) + 1 + i) % 1_000_000).padStart(6, '0'));
        const checkedBefore = codeMacs;
        const answers = await Promise.all(
          guesses.map((guess) =>
            app.inject({ method: 'POST', url: '/dashboard/sign-in/code', headers: FORM, payload: form({ email: victim, code: guess }), remoteAddress: someClientAddress() }),
          ),
        );
        expect(answers.map((a) => a.statusCode)).toEqual(guesses.map(() => 400));
        expect(codeMacs - checkedBefore).toBe(MAX_FAILED_CODES);
        const right = await app.inject({ method: 'POST', url: '/dashboard/sign-in/code', headers: FORM, payload: form({ email: victim, code }), remoteAddress: someClientAddress() });
        expect(right.statusCode).toBe(400);
        expect((await app.inject({ method: 'POST', url: '/dashboard/sign-in/verify', headers: FORM, payload: form({ token }) })).statusCode).toBe(303);
      });
    });

    it('rate-limits sign-in per client address, whatever the email', async () => {
      const remoteAddress = someClientAddress();
      for (let i = 0; i < SIGN_IN_PER_ADDRESS; i++) {
        const res = await app.inject({ method: 'POST', url: '/dashboard/sign-in', headers: FORM, payload: form({ email: `spray${i}@example.com` }), remoteAddress });
        expect(res.statusCode).toBe(303);
      }
      const refused = await app.inject({ method: 'POST', url: '/dashboard/sign-in', headers: FORM, payload: form({ email: 'erin@example.com' }), remoteAddress });
      expect(refused.statusCode).toBe(429);
      // Codes tried count against the same address.
      const code = await app.inject({ method: 'POST', url: '/dashboard/sign-in/code', headers: FORM, payload: form({ email: 'erin@example.com', code: '123456' }), remoteAddress });
      expect(code.statusCode).toBe(429);
    });

    it(`a sign-in email's code dies after ${MAX_FAILED_CODES} wrong codes: the right one is refused then (the link still works)`, async () => {
      const email = 'guessed@example.com';
      await addMember(stack.services, orgA, email);
      const { code, token } = signInSecrets(await requestSignInEmail(app, smtp, email));
      const wrong = String((Number(code) + 7) % 1_000_000).padStart(6, '0');
      for (let i = 0; i < MAX_FAILED_CODES; i++) {
        const res = await app.inject({ method: 'POST', url: '/dashboard/sign-in/code', headers: FORM, payload: form({ email, code: wrong }), remoteAddress: someClientAddress() });
        expect(res.statusCode).toBe(400);
      }
      const right = await app.inject({ method: 'POST', url: '/dashboard/sign-in/code', headers: FORM, payload: form({ email, code }), remoteAddress: someClientAddress() });
      expect(right.statusCode).toBe(400);
      expect((await app.inject({ method: 'POST', url: '/dashboard/sign-in/verify', headers: FORM, payload: form({ token }) })).statusCode).toBe(303);
    });

    it('without an SMTP server the sign-in page says so and answers 503 to the form', async () => {
      const { services } = stack;
      const noMail = new DashboardAccounts({ store: services.stores.dashboardAccounts, organizations: services.stores.billing, keys: lazyDashboardKeys(services.stores.dashboardAccounts, null), mailer: noMailer, logger: services.logger, publicUrl: services.config.publicUrl });
      const offline = await buildApp({ ...appDepsFor(services), dashboard: noMail });
      try {
        expect((await offline.inject({ method: 'GET', url: '/dashboard/sign-in' })).body).toContain('brandbase users link');
        const res = await offline.inject({ method: 'POST', url: '/dashboard/sign-in', headers: FORM, payload: form({ email: 'erin@example.com' }), remoteAddress: someClientAddress() });
        expect(res.statusCode).toBe(503);
        expect(res.body).toContain('not set up on this server');
      } finally {
        await offline.close();
      }
    });

    it('refuses an address that is not one with 400, keeping the form', async () => {
      const res = await app.inject({ method: 'POST', url: '/dashboard/sign-in', headers: FORM, payload: form({ email: 'not an address' }), remoteAddress: someClientAddress() });
      expect(res.statusCode).toBe(400);
      expect(res.body).toContain('That is not an email address');
    });

    it('refuses a sign-in form posted from another origin', async () => {
      const res = await app.inject({ method: 'POST', url: '/dashboard/sign-in', headers: { ...FORM, origin: 'https://evil.example' }, payload: form({ email: 'erin@example.com' }) });
      expect(res.statusCode).toBe(403);
    });
  });

  describe('sessions', () => {
    it('session fixation: a cookie the browser had before signing in is not the session after', async () => {
      const planted = 'bb_session=attacker-chosen-value';
      const { token } = signInSecrets(await requestSignInEmail(app, smtp, 'alice@example.com'));
      const res = await app.inject({ method: 'POST', url: '/dashboard/sign-in/verify', headers: { ...FORM, cookie: planted }, payload: form({ token }) });
      const cookie = sessionCookieOf(res.headers['set-cookie']);
      expect(cookie).not.toBeNull();
      expect(cookie).not.toBe(planted);
      expect((await app.inject({ method: 'GET', url: '/dashboard', headers: { cookie: planted } })).statusCode).toBe(303);
      // Signing in again while signed in mints a new session and ends the old one.
      const { token: again } = signInSecrets(await requestSignInEmail(app, smtp, 'alice@example.com'));
      const second = await app.inject({ method: 'POST', url: '/dashboard/sign-in/verify', headers: { ...FORM, cookie: cookie ?? '' }, payload: form({ token: again }) });
      const next = sessionCookieOf(second.headers['set-cookie']);
      expect(next).not.toBeNull();
      expect(next).not.toBe(cookie);
      expect((await app.inject({ method: 'GET', url: '/dashboard', headers: { cookie: cookie ?? '' } })).statusCode).toBe(303);
      expect((await app.inject({ method: 'GET', url: '/dashboard', headers: { cookie: next ?? '' } })).statusCode).toBe(200);
    });

    it('redirects to sign-in without a session, with a forged JWT, and after sign-out', async () => {
      expect((await app.inject({ method: 'GET', url: `/dashboard/orgs/${orgA}` })).headers.location).toBe('/dashboard/sign-in');
      const { cookie, csrfToken } = await signInThroughEmail(app, smtp, 'alice@example.com');
      const value = cookie.slice('bb_session='.length);
      const [head, body] = value.split('.');
      const forged = `bb_session=${head}.${body}.${'A'.repeat(43)}`;
      expect((await app.inject({ method: 'GET', url: `/dashboard/orgs/${orgA}`, headers: { cookie: forged } })).statusCode).toBe(303);
      const out = await app.inject({ method: 'POST', url: '/dashboard/sign-out', headers: { ...FORM, cookie }, payload: form({ _csrf: csrfToken }) });
      expect(out.statusCode).toBe(303);
      expect([out.headers['set-cookie']].flat().some((c) => c?.startsWith('bb_session=;') && /Max-Age=0/.test(c))).toBe(true);
      expect((await app.inject({ method: 'GET', url: `/dashboard/orgs/${orgA}`, headers: { cookie } })).statusCode).toBe(303);
    });

    it('a revoked session is refused on the pages and on /v2/viewer (403 invalid_session)', async () => {
      const { cookie } = await signInThroughEmail(app, smtp, 'alice@example.com');
      const jwt = cookie.slice('bb_session='.length);
      const viewer = await app.inject({ method: 'GET', url: '/v2/viewer', headers: bearer(jwt) });
      expect(viewer.statusCode).toBe(200);
      expect(await stack.services.dashboardAccounts.revokeAllSessions('alice@example.com')).toBeGreaterThan(0);
      expect((await app.inject({ method: 'GET', url: `/dashboard/orgs/${orgA}`, headers: { cookie } })).statusCode).toBe(303);
      const refused = await app.inject({ method: 'GET', url: '/v2/viewer', headers: bearer(jwt) });
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toEqual({ message: 'Invalid, expired or revoked session. Sign in to the dashboard again.' });
    });

    it('/v2/viewer with a session token answers the user shape: organizations with role and usage, no credential material', async () => {
      const { cookie } = await signInThroughEmail(app, smtp, 'bob@example.com');
      const jwt = cookie.slice('bb_session='.length);
      const res = await app.inject({ method: 'GET', url: '/v2/viewer', headers: bearer(jwt) });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({
        type: 'user',
        id: expect.stringMatching(/^usr_/),
        urn: expect.stringMatching(/^urn:brandbase:user:usr_/),
        email: 'bob@example.com',
        session: { createdAt: expect.any(String), expiresAt: expect.any(String) },
        organizations: [{ id: orgB, urn: `urn:brandbase:organization:${orgB}`, name: 'Org B <script>', role: 'owner', usage: { used: 0, quota: 100 } }],
      });
      expect(res.body).not.toContain(jwt);
      expect(res.body).not.toMatch(/ses_/);
    });

    it('"sign out other sessions" ends every session but this one', async () => {
      const one = await signInThroughEmail(app, smtp, 'alice@example.com');
      const two = await signInThroughEmail(app, smtp, 'alice@example.com');
      const res = await app.inject({ method: 'POST', url: '/dashboard/sessions/revoke-others', headers: { ...FORM, cookie: two.cookie }, payload: form({ _csrf: two.csrfToken }) });
      expect(res.statusCode).toBe(303);
      expect((await app.inject({ method: 'GET', url: '/dashboard/sessions', headers: { cookie: one.cookie } })).statusCode).toBe(303);
      const page = await app.inject({ method: 'GET', url: '/dashboard/sessions', headers: { cookie: two.cookie } });
      expect(page.statusCode).toBe(200);
      expect(page.body).toContain('This browser');
      expect(page.body).toContain('other session');
    });
  });

  describe('CSRF', () => {
    it('a key-creating post without the token, with a wrong token or from another origin is refused with 403 and changes nothing', async () => {
      const { cookie, csrfToken } = await signInThroughEmail(app, smtp, 'alice@example.com');
      const url = `/dashboard/orgs/${orgA}/keys`;
      const before = await keyNames(orgA);
      const attempts = [
        { headers: { ...FORM, cookie }, payload: form({ name: 'no token' }) },
        { headers: { ...FORM, cookie }, payload: form({ name: 'wrong token', _csrf: csrfToken.slice(0, -2) + 'xx' }) },
        { headers: { ...FORM, cookie, origin: 'https://evil.example' }, payload: form({ name: 'other origin', _csrf: csrfToken }) },
      ];
      for (const attempt of attempts) {
        const res = await app.inject({ method: 'POST', url, ...attempt });
        expect(res.statusCode).toBe(403);
      }
      // Another session's token does not work either: the token is bound to the session.
      const other = await signInThroughEmail(app, smtp, 'alice@example.com');
      expect((await app.inject({ method: 'POST', url, headers: { ...FORM, cookie }, payload: form({ name: 'other session', _csrf: other.csrfToken }) })).statusCode).toBe(403);
      expect(await keyNames(orgA)).toEqual(before);
      const ok = await app.inject({ method: 'POST', url, headers: { ...FORM, cookie, origin: 'http://brandbase.test' }, payload: form({ name: 'with token', _csrf: csrfToken }) });
      expect(ok.statusCode).toBe(201);
      expect(await keyNames(orgA)).toContain('with token');
    });

    it('sign-out and session revocation need the token too', async () => {
      const { cookie } = await signInThroughEmail(app, smtp, 'alice@example.com');
      expect((await app.inject({ method: 'POST', url: '/dashboard/sign-out', headers: { ...FORM, cookie }, payload: form({}) })).statusCode).toBe(403);
      expect((await app.inject({ method: 'POST', url: '/dashboard/sessions/revoke-others', headers: { ...FORM, cookie }, payload: form({}) })).statusCode).toBe(403);
      expect((await app.inject({ method: 'GET', url: '/dashboard', headers: { cookie } })).statusCode).toBe(200);
    });
  });

  describe("another organization's pages", () => {
    it('answer 404 with nothing of the organization in them, and its keys cannot be revoked', async () => {
      const { cookie, csrfToken } = await signInThroughEmail(app, smtp, 'alice@example.com');
      const bobKey = (await stack.services.accounts.listApiKeys(orgB))[0];
      for (const url of [`/dashboard/orgs/${orgB}`, `/dashboard/orgs/${orgB}/keys`, '/dashboard/orgs/org_doesnotexist']) {
        const res = await app.inject({ method: 'GET', url, headers: { cookie } });
        expect(res.statusCode).toBe(404);
        expect(res.body).not.toContain('Org B');
        expect(res.body).not.toContain('Bob secret key name');
      }
      const revoke = await app.inject({ method: 'POST', url: `/dashboard/orgs/${orgB}/keys/${bobKey?.id}/revoke`, headers: { ...FORM, cookie }, payload: form({ _csrf: csrfToken }) });
      expect(revoke.statusCode).toBe(404);
      const create = await app.inject({ method: 'POST', url: `/dashboard/orgs/${orgB}/keys`, headers: { ...FORM, cookie }, payload: form({ name: 'intruder', _csrf: csrfToken }) });
      expect(create.statusCode).toBe(404);
      // A key of org B revoked through org A's page is not found there either.
      const sideways = await app.inject({ method: 'POST', url: `/dashboard/orgs/${orgA}/keys/${bobKey?.id}/revoke`, headers: { ...FORM, cookie }, payload: form({ _csrf: csrfToken }) });
      expect(sideways.statusCode).toBe(404);
      expect((await stack.services.accounts.listApiKeys(orgB)).every((k) => k.revokedAt === null)).toBe(true);
      expect(await keyNames(orgB)).toEqual(['Bob secret key name']);
    });

    it('never logs an email address, a sign-in token or a session token', async () => {
      const mail = await requestSignInEmail(app, smtp, 'carol@example.com');
      const { token } = signInSecrets(mail);
      const res = await app.inject({ method: 'POST', url: '/dashboard/sign-in/verify', headers: FORM, payload: form({ token }) });
      const jwt = (sessionCookieOf(res.headers['set-cookie']) ?? '').slice('bb_session='.length);
      await app.inject({ method: 'GET', url: '/v2/viewer', headers: bearer(jwt) });
      const logs = stack.logs();
      expect(logs).not.toContain('@example.com');
      expect(logs).not.toContain(token);
      expect(logs).not.toContain(jwt);
    });

    it('escapes stored text on the pages', async () => {
      const { cookie } = await signInThroughEmail(app, smtp, 'bob@example.com');
      const res = await app.inject({ method: 'GET', url: `/dashboard/orgs/${orgB}`, headers: { cookie } });
      expect(res.statusCode).toBe(200);
      expect(res.body).toContain('Org B &lt;script&gt;');
      expect(res.body).not.toContain('Org B <script>');
      expect(csrfTokenOf(res.body)).toBeTruthy();
    });
  });
});
