/**
 * The dashboard accounts product's storage port (issue 30: each product owns its storage; moved out of
 * the shared store). `store/kysely-dashboard-account-store.ts` implements it over the kernel's Database.
 */
import type { DashboardSessionRecord, DashboardUser, MemberListing, Membership, SignInTokenRecord } from '../domain/dashboard-accounts.js';

/**
 * Dashboard accounts (migration 0021, ADR 0043; SQL in src/dashboard-accounts/store/dashboard-account-rows.ts): users, their
 * memberships, sign-in tokens (hashes only), sessions, the sign-in rate-limit counters and the generated secret.
 */
export interface DashboardAccountStore {
  /** Inserts the user unless one has this email; returns the stored user (the existing one when there was one). */
  createDashboardUser(user: DashboardUser): Promise<DashboardUser>;
  findDashboardUserByEmail(email: string): Promise<DashboardUser | null>;
  getDashboardUser(id: string): Promise<DashboardUser | null>;
  /** Deletes the user with their memberships, sign-in tokens and sessions; false when unknown. */
  deleteDashboardUser(id: string): Promise<boolean>;
  /** Adds the membership or changes its role. */
  setDashboardMembership(membership: Membership): Promise<void>;
  removeDashboardMembership(userId: string, orgId: string): Promise<boolean>;
  dashboardMembership(userId: string, orgId: string): Promise<Membership | null>;
  /** The user's memberships, by organization id. */
  dashboardMemberships(userId: string): Promise<Membership[]>;
  /** Members of one organization, or of all when `orgId` is null; by email. */
  listDashboardMembers(orgId: string | null): Promise<MemberListing[]>;
  insertSignInToken(token: SignInTokenRecord): Promise<void>;
  findSignInTokenByLinkHash(linkHash: string): Promise<SignInTokenRecord | null>;
  /** The user's newest token that is unused and not expired at `now`. */
  latestSignInToken(userId: string, now: Date): Promise<SignInTokenRecord | null>;
  /** Marks the token used at `at` if it is unused and not expired then; true only for the one caller that did. */
  useSignInToken(id: string, at: Date): Promise<boolean>;
  /**
   * Counts one code tried on the token, before it is checked, if the token is unused and not expired at `at`;
   * returns the tries so far (this one included), or null when the token is used, expired or unknown.
   */
  countSignInCodeTry(id: string, at: Date): Promise<number | null>;
  /**
   * Admits one sign-in request under `key` (a keyed MAC, never an email) at `at` when fewer than `limit` were admitted
   * since `since`; forgets requests from before `since`. Refused requests are not counted.
   */
  admitSignInRequest(key: string, limit: number, at: Date, since: Date): Promise<boolean>;
  /** Forgets the counted requests under these keys (a sign-in completed: its address starts afresh). */
  forgetSignInRequests(keys: readonly string[]): Promise<void>;
  insertDashboardSession(session: DashboardSessionRecord): Promise<void>;
  getDashboardSession(id: string): Promise<DashboardSessionRecord | null>;
  touchDashboardSession(id: string, at: Date): Promise<void>;
  /** The user's sessions neither revoked nor expired at `now`, newest first. */
  listDashboardSessions(userId: string, now: Date): Promise<DashboardSessionRecord[]>;
  /** Revokes the user's live sessions (only `sessionId`, or all but `except`); returns how many were revoked. */
  revokeDashboardSessions(userId: string, at: Date, scope?: { sessionId?: string; except?: string }): Promise<number>;
  /** The stored secret `name`, written as `candidate` when missing (the first writer wins). */
  dashboardSecret(name: string, candidate: string, at: Date): Promise<string>;
}
