import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/platform/logger.js';
import { SafeFetcher, USER_AGENT } from '../../src/platform/safe-fetcher.js';
import { closedPort, failure, fakeDns, startServer, type TestServer } from './servers.js';

let site: TestServer;

beforeAll(async () => {
  site = await startServer((req, res) => {
    const path = req.url ?? '/';
    if (path === '/robots.txt') return void res.writeHead(404).end();
    if (path === '/missing') return void res.writeHead(404, { 'content-type': 'text/plain' }).end('nope');
    if (path === '/loop') return void res.writeHead(302, { location: '/loop' }).end();
    if (path === '/hop1') return void res.writeHead(301, { location: '/hop2?x=1' }).end();
    if (path === '/hop2?x=1') return void res.writeHead(307, { location: 'https://site.test/final#frag' }).end();
    if (path.startsWith('/to?')) {
      const target = new URL(path, 'http://x').searchParams.get('url') ?? '/';
      return void res.writeHead(302, { location: target }).end();
    }
    res.writeHead(200, { 'content-type': 'text/html' }).end(`<p>${req.headers.host} ${path}</p>`);
  });
});

afterAll(() => site.close());

/** Every fetcher answers DNS from a table (NXDOMAIN otherwise) so no test can reach a real resolver. */
function fetcher(answers: Record<string, string[]> = {}) {
  const dns = fakeDns(answers);
  const hostMap = { 'site.test': site.address, 'xn--bcher-kva.test': site.address };
  const instance = new SafeFetcher({ hostMap, lookup: dns.lookup });
  return { fetcher: instance, dns };
}

describe('SafeFetcher happy path through the host map', () => {
  it('fetches a mapped host and sends honest headers', async () => {
    const result = await fetcher().fetcher.fetch('http://site.test/page');
    expect(result).toMatchObject({ url: 'http://site.test/page', status: 200, redirects: [] });
    expect(result.body.toString()).toBe('<p>site.test /page</p>');
    const seen = site.requests.findLast((r) => r.path === '/page');
    expect(seen?.headers).toMatchObject({
      'user-agent': USER_AGENT,
      accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
      'accept-language': 'en',
      'accept-encoding': 'gzip, deflate, br',
    });
  });

  it('fetches an https URL of a mapped host over plain HTTP with its own Host header and keeps the URL', async () => {
    const result = await fetcher().fetcher.fetch('https://site.test/secure?q=1', { accept: 'text/css' });
    expect(result.url).toBe('https://site.test/secure?q=1');
    expect(result.body.toString()).toBe('<p>site.test /secure?q=1</p>');
    expect(site.requests.findLast((r) => r.path === '/secure?q=1')?.headers.accept).toBe('text/css');
  });

  it('lower-cases host names and converts IDN to punycode before the host-map match', async () => {
    const result = await fetcher().fetcher.fetch('http://BÜCHER.Test/idn');
    expect(result.url).toBe('http://xn--bcher-kva.test/idn');
    expect(result.body.toString()).toBe('<p>xn--bcher-kva.test /idn</p>');
  });

  it('returns non-2xx statuses instead of throwing', async () => {
    const result = await fetcher().fetcher.fetch('http://site.test/missing');
    expect(result.status).toBe(404);
    expect(result.body.toString()).toBe('nope');
  });

  it('follows redirects by hand, records every hop and drops fragments', async () => {
    const result = await fetcher().fetcher.fetch('http://site.test/hop1');
    expect(result.url).toBe('https://site.test/final');
    expect(result.redirects).toEqual(['http://site.test/hop1', 'http://site.test/hop2?x=1']);
    expect(result.body.toString()).toBe('<p>site.test /final</p>');
  });

  it('gives up after maxRedirects', async () => {
    const error = await failure(fetcher().fetcher.fetch('http://site.test/loop', { maxRedirects: 3 }));
    expect(error.code).toBe('too_many_redirects');
  });
});

describe('SafeFetcher URL validation', () => {
  it.each([
    ['ftp://site.test/file', 'ftp scheme'],
    ['file:///etc/passwd', 'file scheme'],
    ['javascript:alert(1)', 'javascript scheme'],
    ['not a url', 'garbage'],
    ['http://user:pass@site.test/', 'userinfo'],
    ['http://user@site.test/', 'username only'],
    ['http://intranet/', 'single-label host'],
    ['http://localhost/', 'single-label localhost (its DNS answer is checked in address-policy.test.ts)'],
    ['http://example.com:22/', 'non-web port'],
  ])('rejects %s (%s) as invalid_url', async (url) => {
    const { fetcher: f, dns } = fetcher({ 'example.com': ['1.1.1.1'] });
    expect((await failure(f.fetch(url))).code).toBe('invalid_url');
    expect(dns.queries).toEqual([]);
  });
});

describe('SafeFetcher address policy (rejects before any connection)', () => {
  it.each([
    'http://10.0.0.1/',
    'http://172.16.0.1/',
    'http://192.168.0.1/',
    'http://127.0.0.1/',
    'http://[::1]/',
    'http://169.254.169.254/latest/meta-data/',
    'http://169.254.1.1/',
    'http://[fe80::1]/',
    'http://100.64.0.1/',
    'http://224.0.0.1/',
    'http://240.0.0.1/',
    'http://255.255.255.255/',
    'http://0.0.0.0/',
    'http://192.0.2.1/',
    'http://198.18.0.1/',
    'http://[fc00::1]/',
    'http://[fd00:ec2::254]/',
    'http://[64:ff9b::a9fe:a9fe]/',
    'http://[::ffff:127.0.0.1]/',
    'http://[::ffff:7f00:1]/',
    'http://[::ffff:169.254.169.254]/',
    'http://[::127.0.0.1]/',
    'http://2130706433/',
    'http://0x7f.1/',
    'http://0177.0.0.1/',
    'http://017700000001/',
  ])('rejects %s as blocked_address', async (url) => {
    expect((await failure(fetcher().fetcher.fetch(url))).code).toBe('blocked_address');
  });

  it('rejects unmapped loopback even where a server is listening', async () => {
    const before = site.requests.length;
    const error = await failure(fetcher().fetcher.fetch(`http://127.0.0.1:${site.port}/`));
    expect(error.code).toBe('blocked_address');
    expect(site.requests.length).toBe(before);
  });

  it('rejects a host whose DNS answer points at 127.0.0.1 (hostile DNS)', async () => {
    const { fetcher: f, dns } = fetcher({ 'evil.example': ['127.0.0.1'] });
    expect((await failure(f.fetch('http://evil.example/'))).code).toBe('blocked_address');
    expect(dns.queries).toEqual(['evil.example']);
  });

  it('rejects when only one of several DNS answers is private', async () => {
    const { fetcher: f } = fetcher({ 'mixed.example': ['93.184.215.14', '169.254.169.254'] });
    expect((await failure(f.fetch('https://mixed.example/'))).code).toBe('blocked_address');
  });

  it('does not treat www.<mapped host> as mapped', async () => {
    const { fetcher: f, dns } = fetcher();
    expect((await failure(f.fetch('http://www.site.test/'))).code).toBe('dns_failure');
    expect(dns.queries).toEqual(['www.site.test']);
  });

  it('re-checks a redirect from a mapped host to cloud metadata and refuses it', async () => {
    const url = `http://site.test/to?url=${encodeURIComponent('http://169.254.169.254/latest/meta-data')}`;
    const error = await failure(fetcher().fetcher.fetch(url));
    expect(error.code).toBe('blocked_address');
    expect(error.url).toBe('http://169.254.169.254/latest/meta-data');
  });

  it('re-checks a redirect to the unmapped loopback address of the same server', async () => {
    const url = `http://site.test/to?url=${encodeURIComponent(`http://127.0.0.1:${site.port}/page`)}`;
    expect((await failure(fetcher().fetcher.fetch(url))).code).toBe('blocked_address');
  });

  it('re-checks DNS on a redirect to a name that resolves privately', async () => {
    const { fetcher: f } = fetcher({ 'rebind.example': ['10.0.0.7'] });
    const url = `http://site.test/to?url=${encodeURIComponent('https://rebind.example/')}`;
    expect((await failure(f.fetch(url))).code).toBe('blocked_address');
  });
});

describe('SafeFetcher transport failures and logging', () => {
  it('reports NXDOMAIN as dns_failure', async () => {
    expect((await failure(fetcher().fetcher.fetch('http://no-such-host.example/'))).code).toBe('dns_failure');
  });

  it('reports a refused connection as network', async () => {
    const port = await closedPort();
    const f = new SafeFetcher({ hostMap: { 'down.test': `127.0.0.1:${port}` } });
    const error = await failure(f.fetch('http://down.test/', { respectRobots: false }));
    expect(error.code).toBe('network');
  });

  it('rejects a malformed host map at construction', () => {
    expect(() => new SafeFetcher({ hostMap: { 'bad.test': 'localhost:80' } })).toThrow(/ip:port/);
  });

  it('logs no query string at info level', async () => {
    const lines: string[] = [];
    const destination = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    const f = new SafeFetcher({ logger: createLogger({ level: 'info', destination }), lookup: fakeDns().lookup });
    await failure(f.fetch('http://gone.example/path?token=secret'));
    expect(lines.join('')).toContain('gone.example');
    expect(lines.join('')).not.toContain('secret');
  });
});
