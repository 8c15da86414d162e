/**
 * The demo case of issue 14: the service answers 404 for a site that is not up yet and remembers it; the site
 * comes up; the operator runs `brandbase crawl DOMAIN` (a real process on the same SQLite file), which ignores
 * the memory and clears it, so the running service answers the brand at once.
 */
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, runCli } from '../helpers/brandbase-process.js';
import { bearer, startTestStack, type TestStack } from '../helpers/test-stack.js';

const HOST = 'comeback.test';
const PAGE = '<!doctype html><html><head><title>Comeback Coffee</title><meta name="description" content="Coffee that came back."></head><body><h1>Comeback Coffee</h1></body></html>';

let port: number;
let stack: TestStack;
let site: Server | null = null;
const requests: string[] = [];
let env: Record<string, string>;

beforeAll(async () => {
  port = await freePort(); // nothing listens here until the site "comes up"
  env = {
    BRANDBASE_CRAWL_HOSTS: JSON.stringify({ [HOST]: `127.0.0.1:${port}` }),
    // Far longer than this test: only the shell crawl can make the service forget the failure.
    BRANDBASE_CRAWL_FAILURE_MEMORY_MS: String(3_600_000),
  };
  stack = await startTestStack(env);
});

afterAll(async () => {
  await stack?.close();
  if (site) {
    site.closeAllConnections();
    await new Promise((resolve) => site?.close(resolve));
  }
});

async function startSite(): Promise<Server> {
  const server = createServer((req, res) => {
    requests.push(req.url ?? '/');
    if (req.url === '/robots.txt') return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(PAGE);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', resolve);
  });
  return server;
}

describe('brandbase crawl clears the failure memory of a running service', () => {
  it('404 while the site is down, still 404 (remembered) once it is up, 200 after the shell crawl', async () => {
    const { key } = await stack.newKey();
    const get = () => stack.app.inject({ method: 'GET', url: `/v2/brands/${HOST}`, headers: bearer(key) });

    const down = await get();
    expect(down.statusCode).toBe(404);
    expect(down.json()).toMatchObject({ reason: 'unreachable' });

    site = await startSite();
    const remembered = await get();
    expect(remembered.statusCode).toBe(404);
    expect(remembered.json()).toMatchObject({ reason: 'unreachable' });
    expect(requests).toEqual([]); // answered from the memory, the site was not asked

    const cli = await runCli(['crawl', HOST, '--json'], { ...env, BRANDBASE_DATA_DIR: stack.dataDir, BRANDBASE_PUBLIC_URL: 'http://brandbase.test' });
    expect(cli.code, cli.stderr).toBe(0);
    expect(JSON.parse(cli.stdout.trim().split('\n').at(-1) ?? '{}')).toMatchObject({ results: [{ domain: HOST, status: 'indexed' }] });
    expect(requests).toContain('/');
    expect(await stack.services.stores.brands.getCrawlFailure(HOST)).toBeNull();

    const found = await get();
    expect(found.statusCode).toBe(200);
    expect(found.json()).toMatchObject({ domain: HOST, name: expect.stringContaining('Comeback') as unknown });
  });
});
