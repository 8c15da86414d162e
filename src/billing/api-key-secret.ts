import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** Keys look like `bb_live_<43 base64url chars>`: the prefix makes leaked keys easy to grep for and revoke. */
export const API_KEY_PREFIX = 'bb_live_';
const KEY_SHAPE = /^bb_live_[A-Za-z0-9_-]{43}$/;

export interface NewSecret {
  secret: string;
  secretHash: string;
  /** Shown in listings so an operator can tell keys apart; too short to help guess the key. */
  prefix: string;
}

export function generateApiKeySecret(): NewSecret {
  const secret = API_KEY_PREFIX + randomBytes(32).toString('base64url');
  return { secret, secretHash: hashApiKeySecret(secret), prefix: secret.slice(0, API_KEY_PREFIX.length + 4) };
}

/**
 * SHA-256 is enough for keys with 256 bits of entropy (a slow hash protects guessable passwords, which these
 * are not) and keeps verification in the request path cheap.
 */
export function hashApiKeySecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

export function looksLikeApiKey(secret: string): boolean {
  return KEY_SHAPE.test(secret);
}

export function sameHash(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === y.length && timingSafeEqual(x, y);
}
