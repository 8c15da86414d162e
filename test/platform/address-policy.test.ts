import { lookup as dnsLookup } from 'node:dns/promises';
import { describe, expect, it } from 'vitest';
import { isPublicAddress, resolvePublicAddresses } from '../../src/platform/address-policy.js';
import { FetchError } from '../../src/platform/fetcher.js';
import { pinnedLookup } from '../../src/platform/http-hop.js';
import { fakeDns } from './servers.js';

describe('isPublicAddress', () => {
  it.each([
    ['0.0.0.0', 'this network'],
    ['0.1.2.3', '0/8'],
    ['10.1.2.3', 'private 10/8'],
    ['172.16.0.1', 'private 172.16/12'],
    ['172.31.255.254', 'private 172.16/12 upper end'],
    ['192.168.1.1', 'private 192.168/16'],
    ['127.0.0.1', 'loopback'],
    ['127.255.0.9', 'loopback /8'],
    ['169.254.169.254', 'cloud metadata (link-local)'],
    ['169.254.0.1', 'link-local'],
    ['100.64.0.1', 'CGNAT'],
    ['100.127.255.254', 'CGNAT upper end'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast SSDP'],
    ['240.0.0.1', 'reserved 240/4'],
    ['255.255.255.255', 'broadcast'],
    ['192.0.0.8', '192.0.0/24'],
    ['192.0.2.1', 'TEST-NET-1'],
    ['198.51.100.7', 'TEST-NET-2'],
    ['203.0.113.9', 'TEST-NET-3'],
    ['198.18.0.1', 'benchmarking 198.18/15'],
    ['198.19.255.1', 'benchmarking 198.18/15 upper half'],
    ['::', 'IPv6 unspecified'],
    ['::1', 'IPv6 loopback'],
    ['[::1]', 'bracketed IPv6 loopback'],
    ['fe80::1', 'IPv6 link-local'],
    ['fc00::1', 'unique local'],
    ['fd00:ec2::254', 'AWS IPv6 metadata'],
    ['ff02::1', 'IPv6 multicast'],
    ['64:ff9b::7f00:1', 'NAT64 embedding loopback'],
    ['2001:db8::1', 'IPv6 documentation'],
    ['::ffff:127.0.0.1', 'IPv4-mapped loopback'],
    ['::ffff:7f00:1', 'IPv4-mapped loopback, hex form'],
    ['::ffff:a9fe:a9fe', 'IPv4-mapped metadata'],
    ['::ffff:10.0.0.1', 'IPv4-mapped private'],
    ['::7f00:1', 'IPv4-compatible loopback'],
    ['::8.8.8.8', 'IPv4-compatible (deprecated) even for a public v4'],
    ['2002:7f00:1::1', '6to4 embedding loopback'],
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'Teredo'],
    ['fe80::1%eth0', 'link-local with a zone id'],
    ['not-an-ip', 'garbage'],
    ['999.1.1.1', 'out of range'],
  ])('rejects %s (%s)', (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  const publicAddresses = ['93.184.215.14', '1.1.1.1', '8.8.8.8', '2606:4700:4700::1111', '::ffff:1.1.1.1'];
  it.each(publicAddresses)('accepts public unicast %s', (address) => {
    expect(isPublicAddress(address)).toBe(true);
  });
});

describe('resolvePublicAddresses', () => {
  it('rejects a real resolver answer: localhost resolves to 127.0.0.1 via /etc/hosts', async () => {
    const systemLookup = async (host: string) =>
      (await dnsLookup(host, { all: true })).map((a) => ({
        address: a.address,
        family: a.family === 6 ? (6 as const) : (4 as const),
      }));
    await expect(resolvePublicAddresses('localhost', systemLookup)).rejects.toMatchObject({ code: 'blocked_address' });
  });

  it('rejects the whole name when any one answer is private (a hostile DNS server mixing answers)', async () => {
    const dns = fakeDns({ 'mixed.example': ['1.1.1.1', '127.0.0.1'] });
    const resolving = resolvePublicAddresses('mixed.example', dns.lookup);
    await expect(resolving).rejects.toMatchObject({ code: 'blocked_address' });
  });

  it('maps NXDOMAIN and empty answers to dns_failure', async () => {
    const dns = fakeDns({ 'empty.example': [] });
    await expect(resolvePublicAddresses('nope.example', dns.lookup)).rejects.toMatchObject({ code: 'dns_failure' });
    await expect(resolvePublicAddresses('empty.example', dns.lookup)).rejects.toBeInstanceOf(FetchError);
  });

  it('returns every public answer', async () => {
    const dns = fakeDns({ 'ok.example': ['1.1.1.1', '2606:4700:4700::1111'] });
    await expect(resolvePublicAddresses('ok.example', dns.lookup)).resolves.toEqual([
      { address: '1.1.1.1', family: 4 },
      { address: '2606:4700:4700::1111', family: 6 },
    ]);
  });
});

describe('pinnedLookup (the socket-level DNS pin)', () => {
  const call = (pin: { address: string; family: 4 | 6 }[], all: boolean) =>
    new Promise<unknown[]>((resolve) => pinnedLookup(pin)('whatever.example', { all }, (...args) => resolve(args)));

  const v4 = { address: '1.1.1.1', family: 4 as const };
  const v6 = { address: '2606:4700:4700::1111', family: 6 as const };

  it('answers only the pre-checked addresses, in both callback shapes', async () => {
    expect(await call([v6, v4], true)).toEqual([null, [v6, v4]]);
    expect(await call([v4, v6], false)).toEqual([null, '1.1.1.1', 4]);
  });

  it('refuses to hand a non-public address to the socket even if asked to', async () => {
    const [error] = await call([v4, { address: '127.0.0.1', family: 4 }], true);
    expect(error).toBeInstanceOf(Error);
  });
});
