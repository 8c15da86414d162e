/** The fixed rules of dashboard sign-in (docs/dashboard.md, ADR 0043). Constants, not settings: they are security rules. */

/** A sign-in link or code works this long after it was mailed. */
export const SIGN_IN_TOKEN_TTL_MS = 15 * 60_000;
/** A session lasts this long from sign-in (then the person signs in again). */
export const SESSION_TTL_MS = 14 * 24 * 3_600_000;
/**
 * Codes tried on one sign-in email: past this many wrong ones its code is refused even when right (its link still
 * works: it cannot be guessed, so an attacker guessing codes cannot use up a person's email).
 */
export const MAX_FAILED_CODES = 5;
/** The rate-limit window of sign-in requests. */
export const SIGN_IN_WINDOW_MS = 15 * 60_000;
/**
 * Sign-in emails per email address per window (known or unknown address alike, so the limit reveals nothing). Past it
 * no new email is sent, but the emails already sent keep working: the limit stops mail floods, it never locks out.
 */
export const SIGN_IN_PER_EMAIL = 5;
/**
 * Sign-in requests (emails asked for, and codes tried) per client address per window, checked first: a request
 * refused here never counts against the email it names.
 */
export const SIGN_IN_PER_ADDRESS = 20;
/** `last_seen_at` is written at most this often per session. */
export const SESSION_TOUCH_MS = 60_000;

const EMAIL = /^[^\s@<>()[\]\\,;:"]+@[^\s@<>()[\]\\,;:"]+\.[^\s@<>()[\]\\,;:"]+$/;

/** Lower-cased, trimmed email, or null when it is not an address we would send to (254 characters at most). */
export function normalizeEmail(input: string): string | null {
  const email = input.trim().toLowerCase();
  return email.length <= 254 && EMAIL.test(email) ? email : null;
}
