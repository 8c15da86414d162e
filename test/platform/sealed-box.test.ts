/** Sealing with the installation key (src/platform/sealed-box.ts): AES-256-GCM, a key from the setting or a key file. */
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installationSealedBox, keyFromDataDir, keyFromSecret, sealedBox, SealingKeyError, SECRET_KEY_FILE } from '../../src/platform/sealed-box.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'brandbase-sealed-'));
});
afterAll(async () => rm(dir, { recursive: true, force: true }));

const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';

describe('sealedBox', () => {
  const box = sealedBox(keyFromSecret('a'.repeat(32)));

  it('round-trips, never shows the plain text, and seals the same text differently each time', () => {
    const a = box.seal(SECRET);
    const b = box.seal(SECRET);
    expect(a).toMatch(/^v1\.[A-Za-z0-9_-]+$/);
    expect(a).not.toBe(b);
    expect(a).not.toContain('MfKQ9r8');
    expect(box.open(a)).toBe(SECRET);
    expect(box.open(box.seal(''))).toBe('');
    expect(box.open(box.seal('ünïcödé ✓'))).toBe('ünïcödé ✓');
  });

  it('refuses another key, altered bytes and foreign text', () => {
    const sealed = box.seal(SECRET);
    expect(() => sealedBox(keyFromSecret('b'.repeat(32))).open(sealed)).toThrow(SealingKeyError);
    const raw = Buffer.from(sealed.slice(3), 'base64url');
    raw[raw.length - 1] = (raw[raw.length - 1] ?? 0) ^ 1;
    expect(() => box.open(`v1.${raw.toString('base64url')}`)).toThrow(/altered/);
    expect(() => box.open(SECRET)).toThrow(SealingKeyError);
    expect(() => box.open('v1.')).toThrow(SealingKeyError);
  });

  it('refuses a short BRANDBASE_SECRET_KEY', () => {
    expect(() => keyFromSecret('short')).toThrow(/at least 32/);
  });
});

describe('the key file in the data folder', () => {
  it('is created once with mode 0600 and reused', async () => {
    const data = path.join(dir, 'data');
    const first = keyFromDataDir(data);
    const file = path.join(data, SECRET_KEY_FILE);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(keyFromDataDir(data).equals(first)).toBe(true);
    const sealed = installationSealedBox({ secretKey: null, dataDir: data }).seal(SECRET);
    expect(installationSealedBox({ secretKey: null, dataDir: data }).open(sealed)).toBe(SECRET);
    expect((await readFile(file, 'utf8')).trim()).toMatch(/^[0-9a-f]{64}$/);
  });

  it('the configured key wins over the file, and a damaged file is refused', async () => {
    const data = path.join(dir, 'other');
    const sealed = installationSealedBox({ secretKey: 'k'.repeat(40), dataDir: data }).seal(SECRET);
    expect(() => installationSealedBox({ secretKey: null, dataDir: data }).open(sealed)).toThrow(SealingKeyError);
    await writeFile(path.join(data, SECRET_KEY_FILE), 'not a key\n');
    expect(() => keyFromDataDir(data)).toThrow(/64-hex-digit/);
  });
});
