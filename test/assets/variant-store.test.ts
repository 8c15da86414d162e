/** Variant keys (ADR 0034): what the CDN stores its variants under, in any backend (asset-store.contract.ts). */
import { describe, expect, it } from 'vitest';
import { ASSET_KEY_PATTERN } from '../../src/assets/asset-store.js';
import { variantKey } from '../../src/cdn/variant-cache.js';

describe('variant keys', () => {
  it('variant keys change with every part and with the format, and are stable', () => {
    const parts = ['a.png', 32, 32, 32, 32] as const;
    expect(variantKey([...parts], 'png')).toBe(variantKey([...parts], 'png'));
    expect(variantKey([...parts], 'png')).not.toBe(variantKey([...parts], 'webp'));
    expect(variantKey([...parts], 'png')).not.toBe(variantKey(['a.png', 32, 32, 32, 31], 'png'));
    expect(variantKey([...parts], 'png')).not.toBe(variantKey(['b.png', 32, 32, 32, 32], 'png'));
  });

  it('are valid asset keys, so every backend accepts them', () => {
    expect(variantKey(['a.png', null, null, null, null], 'webp')).toMatch(ASSET_KEY_PATTERN);
  });
});
