import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FetchError } from '../../src/platform/fetcher.js';
import { createLogger } from '../../src/platform/logger.js';
import { ROBOTS_FAILURE_TTL_MS, RobotsCache } from '../../src/platform/robots.js';
import { SafeFetcher, USER_AGENT, productToken } from '../../src/platform/safe-fetcher.js';
import { closedPort, startServer, type TestServer } from './servers.js';

/** robots.txt per virtual host: one server, told apart by the Host header the fetcher sends. */
const ROBOTS: Record<string, [number, string]> = {
  'deny-all.test': [200, 'User-agent: *\nDisallow: /\n'],
  'partial.test': [
    200,
    'User-agent: BrandbaseBot\nDisallow: /private\nAllow: /private/press\n\nUser-agent: *\nDisallow: /\n',
  ],
  'other-bot.test': [200, 'User-agent: OtherBot\nDisallow: /\n\nUser-agent: *\nAllow: /\n'],
  'missing.test': [404, 'not found'],
  'broken.test': [500, 'oops'],
  'busy.test': [429, 'slow down'],
};

let site: TestServer;

beforeAll(async () => {
  site = await startServer((req, res) => {
    const host = req.headers.host ?? '';
    if (req.url === '/robots.txt' && host === 'moved.test') {
      return void res.writeHead(301, { location: '/real-robots.txt' }).end();
    }
    if (req.url === '/real-robots.txt') return void res.writeHead(200).end('User-agent: *\nDisallow: /hidden\n');
    const robots = ROBOTS[host];
    if (req.url === '/robots.txt') {
      return void res.writeHead(robots?.[0] ?? 404, { 'content-type': 'text/plain' }).end(robots?.[1] ?? '');
    }
    res.writeHead(200).end(`page ${req.url}`);
  });
});

afterAll(() => site.close());

function fetcher(): SafeFetcher {
  const hostMap = Object.fromEntries([...Object.keys(ROBOTS), 'moved.test'].map((host) => [host, site.address]));
  return new SafeFetcher({ hostMap });
}

async function outcome(f: SafeFetcher, url: string): Promise<string> {
  try {
    return `${(await f.fetch(url)).status}`;
  } catch (error) {
    return error instanceof FetchError ? error.code : 'unexpected';
  }
}

describe('robots.txt through SafeFetcher', () => {
  it('refuses everything under a disallow-all file', async () => {
    expect(await outcome(fetcher(), 'http://deny-all.test/')).toBe('robots_disallowed');
  });

  it('uses the BrandbaseBot group with its Allow override, not the * group', async () => {
    const f = fetcher();
    expect(await outcome(f, 'http://partial.test/private/team')).toBe('robots_disallowed');
    expect(await outcome(f, 'http://partial.test/private/press/kit')).toBe('200');
    expect(await outcome(f, 'http://partial.test/about')).toBe('200');
  });

  it('falls back to the * group when no group names us', async () => {
    expect(await outcome(fetcher(), 'http://other-bot.test/about')).toBe('200');
  });

  it('treats a 404 robots.txt as allow-all', async () => {
    expect(await outcome(fetcher(), 'http://missing.test/')).toBe('200');
  });

  it('fetches nothing under a 5xx robots.txt (and 429), and says the site is unreachable, not that it refused', async () => {
    const f = fetcher();
    const before = site.requests.filter((r) => r.path === '/').length;
    expect(await outcome(f, 'http://broken.test/')).toBe('robots_unreachable');
    expect(await outcome(f, 'http://busy.test/')).toBe('robots_unreachable');
    expect(site.requests.filter((r) => r.path === '/').length).toBe(before);
  });

  it('follows robots.txt redirects', async () => {
    const f = fetcher();
    expect(await outcome(f, 'http://moved.test/hidden/x')).toBe('robots_disallowed');
    expect(await outcome(f, 'http://moved.test/shown')).toBe('200');
  });

  it('skips robots.txt when respectRobots is false', async () => {
    const result = await fetcher().fetch('http://deny-all.test/', { respectRobots: false });
    expect(result.status).toBe(200);
  });

  it('fetches robots.txt once per origin with our user agent, and caches it', async () => {
    const f = fetcher();
    const seen = () => site.requests.filter((r) => r.host === 'missing.test' && r.path === '/robots.txt');
    const before = seen().length;
    await Promise.all(['a', 'b', 'c'].map((page) => f.fetch(`http://missing.test/${page}`)));
    expect(seen().length - before).toBe(1);
    expect(seen().at(-1)?.headers['user-agent']).toBe(USER_AGENT);
    // https://missing.test is a different origin (scheme is part of it) and gets its own robots.txt.
    await f.fetch('https://missing.test/a');
    expect(seen().length - before).toBe(2);
  });
});

describe('a site that is down is never reported as robots_disallowed', () => {
  it('a refused connection fails the fetch as network, not robots_disallowed, and is logged once', async () => {
    const port = await closedPort();
    const lines: string[] = [];
    const destination = new Writable({ write: (chunk: Buffer, _enc, done) => void (lines.push(chunk.toString()), done()) });
    const f = new SafeFetcher({ hostMap: { 'down.test': `127.0.0.1:${port}` }, logger: createLogger({ level: 'info', destination }) });
    expect(await outcome(f, 'http://down.test/')).toBe('network');
    // The robots.txt fetch failed and stopped the page fetch with the same failure: one line, not two.
    expect(lines.filter((l) => l.includes('fetch failed'))).toHaveLength(1);
  });

  it('a robots.txt that never answers fails the fetch as timeout', async () => {
    const silent = await startServer(() => undefined); // accepts, reads the request, never answers
    try {
      const f = new SafeFetcher({ hostMap: { 'silent.test': silent.address } });
      expect(await settled(f.fetch('http://silent.test/', { timeoutMs: 300 }))).toBe('timeout');
    } finally {
      await silent.close();
    }
  });

  it('a name that does not resolve fails as dns_failure', async () => {
    const f = new SafeFetcher({ lookup: async () => Promise.reject(Object.assign(new Error('nx'), { code: 'ENOTFOUND' })) });
    expect(await outcome(f, 'http://no-such-brand.example/')).toBe('dns_failure');
  });
});

async function settled(promise: Promise<{ status: number }>): Promise<string> {
  try {
    return `${(await promise).status}`;
  } catch (error) {
    return error instanceof FetchError ? error.code : 'unexpected';
  }
}

describe('RobotsCache', () => {
  it('takes the product token from the user agent', () => {
    expect(productToken(USER_AGENT)).toBe('BrandbaseBot');
  });

  it('rejects with the load failure while robots.txt is unreachable, and tries again after a short time', async () => {
    let now = 0;
    let calls = 0;
    const cache = new RobotsCache({
      productToken: 'BrandbaseBot',
      now: () => now,
      load: async () => {
        calls += 1;
        if (calls === 1) throw new FetchError('network', 'connection refused');
        return { status: 200, body: Buffer.from('User-agent: *\nAllow: /\n') };
      },
    });
    const url = new URL('https://brand.example/');
    await expect(cache.isAllowed(url)).rejects.toMatchObject({ code: 'network' });
    await expect(cache.isAllowed(url)).rejects.toMatchObject({ code: 'network' });
    expect(calls).toBe(1);
    // Shorter than the crawl failure memory's default (60 s): a site that came up is seen by the next crawl.
    expect(ROBOTS_FAILURE_TTL_MS).toBeLessThan(60_000);
    now += ROBOTS_FAILURE_TTL_MS + 1;
    expect(await cache.isAllowed(url)).toBe(true);
    expect(calls).toBe(2);
  });

  it('keeps at most maxEntries origins', async () => {
    let calls = 0;
    const cache = new RobotsCache({
      productToken: 'BrandbaseBot',
      maxEntries: 2,
      load: async () => {
        calls += 1;
        return { status: 404, body: Buffer.alloc(0) };
      },
    });
    for (const host of ['a', 'b', 'c', 'a']) await cache.isAllowed(new URL(`https://${host}.example/`));
    expect(calls).toBe(4); // a was evicted by c
  });
});
