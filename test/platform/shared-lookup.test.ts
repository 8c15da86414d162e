import { describe, expect, it } from 'vitest';
import type { ResolvedAddress } from '../../src/platform/address-policy.js';
import { NEGATIVE_TTL_MS, sharedLookup } from '../../src/platform/shared-lookup.js';

/** A resolver whose answers the test releases by hand, counting the calls it gets. */
function manualResolver() {
  const calls: string[] = [];
  const pending: { resolve: (a: ResolvedAddress[]) => void; reject: (e: Error) => void }[] = [];
  const lookup = (hostname: string) => {
    calls.push(hostname);
    return new Promise<ResolvedAddress[]>((resolve, reject) => pending.push({ resolve, reject }));
  };
  return { calls, pending, lookup };
}

describe('sharedLookup', () => {
  it('asks the resolver once for concurrent lookups of one name, and again once the answer is in', async () => {
    const resolver = manualResolver();
    const lookup = sharedLookup(resolver.lookup);
    const both = Promise.all([lookup('media.example.com'), lookup('MEDIA.example.com')]);
    expect(resolver.calls).toEqual(['media.example.com']);
    resolver.pending[0]?.resolve([{ address: '93.184.216.34', family: 4 }]);
    expect(await both).toEqual([[{ address: '93.184.216.34', family: 4 }], [{ address: '93.184.216.34', family: 4 }]]);
    // A successful answer is not kept: the next connection is pinned to a fresh one.
    void lookup('media.example.com');
    expect(resolver.calls).toHaveLength(2);
  });

  it('answers a failed name from memory until NEGATIVE_TTL_MS has passed', async () => {
    let clock = 0;
    const resolver = manualResolver();
    const lookup = sharedLookup(resolver.lookup, () => clock);
    const first = lookup('tags.unreachable.example');
    resolver.pending[0]?.reject(Object.assign(new Error('getaddrinfo ENOTFOUND'), { code: 'ENOTFOUND' }));
    await expect(first).rejects.toThrow('ENOTFOUND');
    clock = NEGATIVE_TTL_MS - 1;
    await expect(lookup('tags.unreachable.example')).rejects.toThrow('ENOTFOUND');
    expect(resolver.calls).toHaveLength(1);
    clock = NEGATIVE_TTL_MS + 1;
    void lookup('tags.unreachable.example').catch(() => undefined);
    expect(resolver.calls).toHaveLength(2);
  });
});
