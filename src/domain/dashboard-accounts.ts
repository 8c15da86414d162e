/**
 * Dashboard accounts (issue 23, ADR 0043): the people who sign in to /dashboard, their memberships of
 * organizations, the one-time sign-in tokens mailed to them and their sessions. Types only; the rules live in
 * src/dashboard-accounts, the rows in src/dashboard-accounts/store/dashboard-account-rows.ts.
 */

export type MemberRole = 'owner' | 'member';

export const MEMBER_ROLES: readonly MemberRole[] = ['owner', 'member'];

export interface DashboardUser {
  /** `usr_` + 24 base32 characters. */
  id: string;
  /** Lower-cased and trimmed; account data (never logged). */
  email: string;
  createdAt: Date;
}

export interface Membership {
  userId: string;
  orgId: string;
  role: MemberRole;
  createdAt: Date;
}

/** A user with one of their memberships (the operator's `users list`). */
export interface MemberListing {
  user: DashboardUser;
  orgId: string;
  role: MemberRole;
}

/**
 * A sign-in email's secrets, hashed: the link token (32 random bytes) and the 6-digit code (HMAC with the token id,
 * so equal codes of two emails do not hash alike). Single use and short-lived; bound to one user (one email).
 */
export interface SignInTokenRecord {
  id: string;
  userId: string;
  linkHash: string;
  codeHash: string;
  createdAt: Date;
  expiresAt: Date;
  usedAt: Date | null;
  /**
   * Codes tried against this token (counted before each is checked, so in practice the wrong ones); past the limit its
   * code stops working (guessing 10^6 codes is not an option), its link does not (it cannot be guessed).
   */
  failedCodes: number;
}

/** A signed-in browser. The cookie carries a JWT naming `id`; the row says whether it still counts. */
export interface DashboardSessionRecord {
  /** `ses_` + 24 base32 characters, minted at sign-in (never a value the browser sent before). */
  id: string;
  userId: string;
  createdAt: Date;
  lastSeenAt: Date;
  expiresAt: Date;
  revokedAt: Date | null;
  /** The browser's User-Agent (cut to 200 characters), so a person can tell their sessions apart. No IP address. */
  userAgent: string | null;
}
