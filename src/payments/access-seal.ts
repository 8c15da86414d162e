/**
 * The sealed copy of a purchase's API key and MCP token, kept only so that a retry of the exact paid request
 * (spec 5.3) can receive them (ADR 0029). AES-256-GCM (platform/sealed-box.ts) under a key derived with HKDF-SHA256
 * from the installation key and the payment proof as presented (the whole PAYMENT-SIGNATURE header or
 * `Authorization: Payment` credential). The proof is never stored, so a copy of the database alone cannot open a
 * seal; the installation key is never in the database, so the proof alone (public on a chain once settled) cannot
 * either. Seals are wiped when delivered or three minutes after the payment.
 */
import { createHash, hkdfSync } from 'node:crypto';
import { sealedBox, SealingKeyError } from '../platform/sealed-box.js';

export interface AccessSecrets {
  apiKey: string;
  mcpToken: string;
}

function sealKey(installationKey: Buffer, paymentKey: string, proof: string): Buffer {
  const salt = createHash('sha256').update(proof, 'utf8').digest();
  return Buffer.from(hkdfSync('sha256', installationKey, salt, `brandbase access delivery v1\0${paymentKey}`, 32));
}

export function sealAccessSecrets(installationKey: Buffer, paymentKey: string, proof: string, secrets: AccessSecrets): string {
  return sealedBox(sealKey(installationKey, paymentKey, proof)).seal(JSON.stringify(secrets));
}

/** Null when the proof is not the one the purchase was paid with (or the seal was altered). */
export function openAccessSecrets(installationKey: Buffer, paymentKey: string, proof: string, sealed: string): AccessSecrets | null {
  try {
    const parsed = JSON.parse(sealedBox(sealKey(installationKey, paymentKey, proof)).open(sealed)) as Partial<AccessSecrets>;
    return typeof parsed.apiKey === 'string' && typeof parsed.mcpToken === 'string' ? { apiKey: parsed.apiKey, mcpToken: parsed.mcpToken } : null;
  } catch (error) {
    if (error instanceof SealingKeyError) return null;
    throw error;
  }
}
