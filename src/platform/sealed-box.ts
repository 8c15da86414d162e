/**
 * Sealing of values we must send again later and so cannot hash: webhook signing secrets and the endpoint's
 * Authorization value (issue 19). AES-256-GCM with the installation key, which comes from BRANDBASE_SECRET_KEY or,
 * when that is not set, from a key file generated once in the data folder (`secret.key`, mode 0600).
 * Several processes on one store (PostgreSQL, several hosts) must share the key: set BRANDBASE_SECRET_KEY on all.
 * docs/webhooks.md ("Secrets at rest") and docs/configuration.md describe it.
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** Sealed text: `v1.` + base64url(iv(12) ‖ tag(16) ‖ ciphertext). The version lets the format change later. */
const VERSION = 'v1.';
const IV_BYTES = 12;
const TAG_BYTES = 16;
export const SECRET_KEY_FILE = 'secret.key';
/** A passphrase shorter than this is refused: the key must not be guessable. */
export const MIN_SECRET_KEY_LENGTH = 32;

export interface SealedBox {
  seal(plain: string): string;
  /** Throws when the text was not sealed with this key or was altered. */
  open(sealed: string): string;
}

export class SealingKeyError extends Error {}

/** A box over a 32-byte key. */
export function sealedBox(key: Buffer): SealedBox {
  if (key.length !== 32) throw new SealingKeyError('the sealing key must be 32 bytes');
  return {
    seal(plain: string): string {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return VERSION + Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url');
    },
    open(sealed: string): string {
      if (!sealed.startsWith(VERSION)) throw new SealingKeyError('not a sealed value');
      const raw = Buffer.from(sealed.slice(VERSION.length), 'base64url');
      if (raw.length < IV_BYTES + TAG_BYTES) throw new SealingKeyError('not a sealed value');
      const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, IV_BYTES));
      decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
      try {
        return Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
      } catch {
        // GCM refuses a wrong key and altered bytes alike; say which value, never echo it.
        throw new SealingKeyError('a sealed value could not be opened: wrong installation key or altered data');
      }
    },
  };
}

/** The key derived from a configured passphrase (any text of at least 32 characters, e.g. `openssl rand -hex 32`). */
export function keyFromSecret(secret: string): Buffer {
  if (secret.length < MIN_SECRET_KEY_LENGTH) {
    throw new SealingKeyError(`BRANDBASE_SECRET_KEY must be at least ${MIN_SECRET_KEY_LENGTH} characters`);
  }
  return createHash('sha256').update('brandbase sealed-box v1\0').update(secret, 'utf8').digest();
}

/**
 * The key from `<dataDir>/secret.key`, created (32 random bytes, hex, mode 0600) when missing. `wx` makes the
 * creation exclusive: when two processes start at once, the loser reads the winner's file.
 */
export function keyFromDataDir(dataDir: string): Buffer {
  const file = path.join(dataDir, SECRET_KEY_FILE);
  mkdirSync(dataDir, { recursive: true });
  try {
    writeFileSync(file, `${randomBytes(32).toString('hex')}\n`, { flag: 'wx', mode: 0o600 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  const hex = readFileSync(file, 'utf8').trim();
  if (!/^[0-9a-f]{64}$/i.test(hex)) throw new SealingKeyError(`${file} does not hold a 64-hex-digit key`);
  return Buffer.from(hex, 'hex');
}

/** The installation's box: BRANDBASE_SECRET_KEY when configured, the data folder's key file otherwise. */
export function installationSealedBox(options: { secretKey: string | null; dataDir: string }): SealedBox {
  return sealedBox(options.secretKey === null ? keyFromDataDir(options.dataDir) : keyFromSecret(options.secretKey));
}
