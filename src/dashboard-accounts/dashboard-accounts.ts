/**
 * Dashboard accounts (issue 23, ADR 0043): sign-in by a one-time link or code mailed through SMTP, sessions as
 * signed JWTs backed by a session row (so they can be listed and revoked), CSRF tokens bound to the session, and
 * the membership checks of the organization pages. Email addresses are account data here: stored, never logged.
 */
import { createHash, randomBytes, randomInt } from 'node:crypto';
import { SignJWT, jwtVerify } from 'jose';
import type { DashboardSessionRecord, DashboardUser, MemberRole, Membership } from '../domain/dashboard-accounts.js';
import type { Mailer } from '../billing/mailer.js';
import type { Logger } from '../platform/logger.js';
import type { AccountStore } from '../billing/billing-store.js';
import type { DashboardAccountStore } from './dashboard-account-store.js';
import { sameMac, type DashboardKeys } from './dashboard-secrets.js';
import {
  MAX_FAILED_CODES,
  SESSION_TOUCH_MS,
  SESSION_TTL_MS,
  SIGN_IN_PER_ADDRESS,
  SIGN_IN_PER_EMAIL,
  SIGN_IN_TOKEN_TTL_MS,
  SIGN_IN_WINDOW_MS,
  normalizeEmail,
} from './sign-in-rules.js';
import { signInEmail } from './sign-in-email.js';

/** The JWT's issuer and audience: a token minted for something else never passes as a session. */
const ISSUER = 'brandbase';
const AUDIENCE = 'brandbase-dashboard';

export type SignInRequestOutcome =
  /** Mailed when the address has an account; the same answer when it has none (nothing is sent then). */
  | 'accepted'
  | 'invalid_email'
  /** The client address asked too often (SIGN_IN_PER_ADDRESS): refused, and not counted against the email. */
  | 'rate_limited'
  /**
   * The email was sent SIGN_IN_PER_EMAIL sign-in emails in the window: no new one is sent, the ones sent still work.
   * The same for an address with and without an account.
   */
  | 'email_throttled'
  /** No SMTP server is configured (BRANDBASE_SMTP_URL): nobody can sign in by email. */
  | 'no_mailer';

export interface SignedIn {
  /** The cookie value: a JWT (HS256) naming the new session. */
  token: string;
  session: DashboardSessionRecord;
  user: DashboardUser;
}

export interface ActiveSession {
  session: DashboardSessionRecord;
  user: DashboardUser;
}

export class DashboardAccountError extends Error {
  constructor(
    readonly code: 'invalid_email' | 'invalid_role' | 'org_not_found' | 'user_not_found' | 'last_owner',
    message: string,
  ) {
    super(message);
    this.name = 'DashboardAccountError';
  }
}

export interface DashboardAccountsOptions {
  store: DashboardAccountStore;
  /** Billing's organizations: a membership names one. */
  organizations: Pick<AccountStore, 'getOrganization'>;
  keys: () => Promise<DashboardKeys>;
  mailer: Mailer;
  logger: Logger;
  publicUrl: string;
  now?: () => Date;
}

function randomId(prefix: 'usr' | 'ses' | 'sit'): string {
  return `${prefix}_${randomBytes(15).toString('hex')}`;
}

function sha256(value: string): string {
  return createHash('sha256').update(value).digest('base64url');
}

export class DashboardAccounts {
  readonly #store: DashboardAccountStore;
  readonly #organizations: DashboardAccountsOptions['organizations'];
  readonly #keys: () => Promise<DashboardKeys>;
  readonly #mailer: Mailer;
  readonly #logger: Logger;
  readonly #publicUrl: string;
  readonly #now: () => Date;

  constructor(options: DashboardAccountsOptions) {
    this.#store = options.store;
    this.#organizations = options.organizations;
    this.#keys = options.keys;
    this.#mailer = options.mailer;
    this.#logger = options.logger;
    this.#publicUrl = options.publicUrl.replace(/\/+$/, '');
    this.#now = options.now ?? (() => new Date());
  }

  /** Whether sign-in by email can work at all (an SMTP server is configured). */
  get canMail(): boolean {
    return this.#mailer.sends;
  }

  // ---- sign-in ----

  /**
   * Mails a sign-in link and code to the address if it has an account. The answer is the same whether it has one or
   * not, and the email is sent in the background so the answer's timing does not tell either.
   */
  async requestSignIn(input: { email: string; clientAddress: string }): Promise<SignInRequestOutcome> {
    const email = normalizeEmail(input.email);
    if (email === null) return 'invalid_email';
    // The client address first: a flood from one address is refused before it can count against anybody's email.
    if (!(await this.#admit(`address:${input.clientAddress}`, SIGN_IN_PER_ADDRESS))) return 'rate_limited';
    if (!this.#mailer.sends) return 'no_mailer';
    // Only emails sent count here, so whoever asks for somebody else's email cannot keep them from getting one for
    // longer than the window; and the emails already sent (link and code) still sign them in.
    if (!(await this.#admit(`email:${email}`, SIGN_IN_PER_EMAIL))) return 'email_throttled';
    const user = await this.#store.findDashboardUserByEmail(email);
    if (!user) return 'accepted';
    const { link, code } = await this.#issueToken(user);
    void this.#mailer.send(signInEmail(user.email, link, code)).catch((error: unknown) => {
      // The error's code only: SMTP errors quote the recipient, and addresses are never logged.
      const code = typeof error === 'object' && error !== null ? String((error as { code?: unknown }).code ?? 'unknown') : 'unknown';
      this.#logger.error({ userId: user.id, code }, 'dashboard sign-in email could not be sent');
    });
    return 'accepted';
  }

  /** A one-time sign-in link for the user (the operator's `brandbase users link`, and the email). */
  async signInLink(email: string): Promise<string> {
    const user = await this.#userByEmail(email);
    return (await this.#issueToken(user)).link;
  }

  /** Signs in with the link's token: a new session, or null when the token is unknown, used or expired. */
  async verifyLink(token: string, userAgent: string | null): Promise<SignedIn | null> {
    if (!/^[A-Za-z0-9_-]{20,100}$/.test(token)) return null;
    const record = await this.#store.findSignInTokenByLinkHash(sha256(token));
    if (!record || !(await this.#store.useSignInToken(record.id, this.#now()))) return null;
    return this.#startSession(record.userId, userAgent);
  }

  /**
   * Signs in with the emailed code, typed on the "check your email" page. Every try counts against the client
   * address's limit, and a token's code takes MAX_FAILED_CODES tries at most: guessing is not an option. Its link
   * keeps working, so guessing at somebody's code cannot use up their email either.
   */
  async verifyCode(input: { email: string; code: string; clientAddress: string; userAgent: string | null }): Promise<SignedIn | 'rate_limited' | null> {
    const email = normalizeEmail(input.email);
    const code = input.code.replace(/\s+/g, '');
    if (!(await this.#admit(`address:${input.clientAddress}`, SIGN_IN_PER_ADDRESS))) return 'rate_limited';
    if (email === null || !/^\d{6}$/.test(code)) return null;
    const user = await this.#store.findDashboardUserByEmail(email);
    const now = this.#now();
    const record = user ? await this.#store.latestSignInToken(user.id, now) : null;
    if (!user || !record) return null;
    // The try is counted before the code is checked: concurrent guesses get MAX_FAILED_CODES checks between them.
    const tries = await this.#store.countSignInCodeTry(record.id, now);
    if (tries === null || tries > MAX_FAILED_CODES) return null;
    const keys = await this.#keys();
    if (!sameMac(keys.mac('code', `${record.id}:${code}`), record.codeHash)) return null;
    if (!(await this.#store.useSignInToken(record.id, now))) return null;
    return this.#startSession(user.id, input.userAgent);
  }

  /** Admits one request under a limit key (stored as a keyed MAC, never the address or email itself). */
  async #admit(key: string, limit: number): Promise<boolean> {
    const keys = await this.#keys();
    const now = this.#now();
    return this.#store.admitSignInRequest(keys.mac('limit', key), limit, now, new Date(now.getTime() - SIGN_IN_WINDOW_MS));
  }

  async #issueToken(user: DashboardUser): Promise<{ link: string; code: string }> {
    const keys = await this.#keys();
    const id = randomId('sit');
    const token = randomBytes(32).toString('base64url');
    const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
    const now = this.#now();
    await this.#store.insertSignInToken({
      id,
      userId: user.id,
      linkHash: sha256(token),
      codeHash: keys.mac('code', `${id}:${code}`),
      createdAt: now,
      expiresAt: new Date(now.getTime() + SIGN_IN_TOKEN_TTL_MS),
      usedAt: null,
      failedCodes: 0,
    });
    return { link: `${this.#publicUrl}/dashboard/sign-in/verify?token=${token}`, code };
  }

  /** A brand-new session id (never one the browser sent: no session fixation) and its signed cookie value. */
  async #startSession(userId: string, userAgent: string | null): Promise<SignedIn | null> {
    const user = await this.#store.getDashboardUser(userId);
    if (!user) return null;
    const now = this.#now();
    const session: DashboardSessionRecord = {
      id: randomId('ses'),
      userId,
      createdAt: now,
      lastSeenAt: now,
      expiresAt: new Date(now.getTime() + SESSION_TTL_MS),
      revokedAt: null,
      userAgent: userAgent === null ? null : userAgent.slice(0, 200),
    };
    await this.#store.insertDashboardSession(session);
    const keys = await this.#keys();
    // The person got the email: their address's sign-in count starts afresh (the limit stops mail floods, not them).
    await this.#store.forgetSignInRequests([keys.mac('limit', `email:${user.email}`)]);
    const token = await new SignJWT({ sid: session.id })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(userId)
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .setIssuedAt(Math.floor(now.getTime() / 1000))
      .setExpirationTime(Math.floor(session.expiresAt.getTime() / 1000))
      .sign(keys.jwt);
    return { token, session, user };
  }

  // ---- sessions ----

  /** The live session a cookie or bearer token names; null when the JWT is bad or the session revoked or expired. */
  async readSession(token: string): Promise<ActiveSession | null> {
    const keys = await this.#keys();
    const now = this.#now();
    let sessionId: unknown;
    let subject: string | undefined;
    try {
      const { payload } = await jwtVerify(token, keys.jwt, { algorithms: ['HS256'], issuer: ISSUER, audience: AUDIENCE, currentDate: now });
      sessionId = payload['sid'];
      subject = payload.sub;
    } catch {
      return null;
    }
    if (typeof sessionId !== 'string') return null;
    const session = await this.#store.getDashboardSession(sessionId);
    if (!session || session.userId !== subject || session.revokedAt !== null || session.expiresAt <= now) return null;
    const user = await this.#store.getDashboardUser(session.userId);
    if (!user) return null;
    if (now.getTime() - session.lastSeenAt.getTime() >= SESSION_TOUCH_MS) await this.#store.touchDashboardSession(session.id, now);
    return { session, user };
  }

  /** The synchronizer token of a session's forms: a MAC of the session id, so it dies with the session. */
  async csrfToken(sessionId: string): Promise<string> {
    return (await this.#keys()).mac('csrf', sessionId);
  }

  async checkCsrfToken(sessionId: string, token: string): Promise<boolean> {
    return sameMac(await this.csrfToken(sessionId), token);
  }

  listSessions(userId: string): Promise<DashboardSessionRecord[]> {
    return this.#store.listDashboardSessions(userId, this.#now());
  }

  /** Revokes one of the user's sessions (sign out, or the sessions page); false when it is not theirs or not live. */
  async revokeSession(userId: string, sessionId: string): Promise<boolean> {
    return (await this.#store.revokeDashboardSessions(userId, this.#now(), { sessionId })) > 0;
  }

  /** "Sign out other sessions". */
  revokeOtherSessions(userId: string, keep: string): Promise<number> {
    return this.#store.revokeDashboardSessions(userId, this.#now(), { except: keep });
  }

  /** The operator's `brandbase sessions revoke <email>`: every session of the user. */
  async revokeAllSessions(email: string): Promise<number> {
    const user = await this.#userByEmail(email);
    return this.#store.revokeDashboardSessions(user.id, this.#now());
  }

  // ---- memberships ----

  /** The user's role in the organization, or null when not a member (the pages answer 404 then). */
  async roleIn(userId: string, orgId: string): Promise<MemberRole | null> {
    return (await this.#store.dashboardMembership(userId, orgId))?.role ?? null;
  }

  /** The user's organizations with their names, for the org picker and /v2/viewer. */
  async organizationsOf(userId: string): Promise<{ id: string; name: string; role: MemberRole }[]> {
    const memberships = await this.#store.dashboardMemberships(userId);
    const orgs = await Promise.all(memberships.map(async (m) => ({ m, org: await this.#organizations.getOrganization(m.orgId) })));
    return orgs.flatMap(({ m, org }) => (org ? [{ id: org.id, name: org.name, role: m.role }] : []));
  }

  /** Adds a user (created when new) to an organization with a role, or changes their role (`brandbase users add`). */
  async addMember(input: { email: string; orgId: string; role?: MemberRole }): Promise<Membership> {
    const email = normalizeEmail(input.email);
    if (email === null) throw new DashboardAccountError('invalid_email', 'Not an email address.');
    const role = input.role ?? 'member';
    if (role !== 'owner' && role !== 'member') throw new DashboardAccountError('invalid_role', 'Role must be owner or member.');
    if (!(await this.#organizations.getOrganization(input.orgId))) throw new DashboardAccountError('org_not_found', `No organization with id ${input.orgId}.`);
    const now = this.#now();
    const user = await this.#store.createDashboardUser({ id: randomId('usr'), email, createdAt: now });
    const existing = await this.#store.dashboardMembership(user.id, input.orgId);
    const membership: Membership = { userId: user.id, orgId: input.orgId, role, createdAt: existing?.createdAt ?? now };
    await this.#store.setDashboardMembership(membership);
    return membership;
  }

  /** Removes a membership, or the user altogether (with sessions) when `orgId` is null. */
  async removeMember(email: string, orgId: string | null): Promise<void> {
    const user = await this.#userByEmail(email);
    const removed = orgId === null ? await this.#store.deleteDashboardUser(user.id) : await this.#store.removeDashboardMembership(user.id, orgId);
    if (!removed) throw new DashboardAccountError('user_not_found', orgId === null ? 'No such user.' : `The user is not a member of ${orgId}.`);
  }

  listMembers(orgId: string | null): ReturnType<DashboardAccountStore['listDashboardMembers']> {
    return this.#store.listDashboardMembers(orgId);
  }

  async #userByEmail(input: string): Promise<DashboardUser> {
    const email = normalizeEmail(input);
    const user = email === null ? null : await this.#store.findDashboardUserByEmail(email);
    if (!user) throw new DashboardAccountError('user_not_found', 'No user with this email.');
    return user;
  }
}
