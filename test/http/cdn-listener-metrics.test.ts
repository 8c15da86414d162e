/**
 * The logo CDN on its own listener (BRANDBASE_CDN_PORT, `http/cdn/build-cdn-app.ts`) counts its requests in the
 * process's metrics like the API does (ADR 0039): by route template and status, never the identifier in the path.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCdnApp } from '../../src/http/cdn/build-cdn-app.js';
import { cdnDepsFor } from '../../src/main/cdn-deps.js';
import { startTestStack, type TestStack } from '../helpers/test-stack.js';

let stack: TestStack;
let cdn: FastifyInstance;
let clientId: string;

/** The request counter's lines in the process's metrics text. */
async function requestSeries(): Promise<string[]> {
  const { body } = await stack.services.metrics.render();
  return body.split('\n').filter((line) => line.startsWith('brandbase_http_requests_total{'));
}

beforeAll(async () => {
  stack = await startTestStack({ BRANDBASE_CDN_PORT: '0', BRANDBASE_WORKER_CONCURRENCY: '0' });
  const org = await stack.services.accounts.createOrganization({ name: 'CDN metrics', plan: 'paid' });
  clientId = (await stack.services.clientIds.create(org.id)).id;
  cdn = await buildCdnApp(cdnDepsFor(stack.services, stack.services.clientIdGate));
});

afterAll(async () => {
  await cdn?.close();
  await stack?.close();
});

describe('the logo CDN listener in /metrics', () => {
  it('counts its requests by route template and status, without the identifier', async () => {
    expect(await requestSeries()).toEqual([]);
    const queued = await cdn.inject({ method: 'GET', url: `/unheld-brand.test/fallback/404?c=${clientId}` });
    expect(queued.statusCode).toBe(404);
    const unknownClient = await cdn.inject({ method: 'GET', url: '/unheld-brand.test?c=not-a-client' });
    expect(unknownClient.statusCode).toBeGreaterThanOrEqual(400);
    const series = await requestSeries();
    expect(series).toHaveLength(2);
    expect(series.join('\n')).not.toContain('unheld-brand');
    expect(series.some((line) => line.includes('status="404"') && line.endsWith(' 1'))).toBe(true);
    expect(series.every((line) => line.includes('method="GET"') && /route="[^"]+"/.test(line))).toBe(true);
  });
});
