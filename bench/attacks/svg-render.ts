/**
 * Issue 33, measured from outside: a real `brandbase serve` (the built program, SQLite) holding a brand whose logo
 * is a filter-bomb SVG (test/helpers/hostile-svg.ts). First the latency of `GET /healthz` and of `GET /assets/{key}`
 * (a stored PNG) with nothing else running; then the same while four CDN requests ask for new sizes of the hostile
 * logo (each a render the SVG pool kills at BRANDBASE_SVG_RENDER_TIMEOUT_MS). Prints both, and what the hostile
 * requests were answered. Part of `npm run bench -- --attacks`; alone, after `npm run build`:
 * `node --import tsx bench/attacks/svg-render.ts`.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import sharp from 'sharp';
import { loadConfig } from '../../src/config/config.js';
import { createServices } from '../../src/main/services.js';
import { silentLogger } from '../../src/platform/logger.js';
import { sampleBrand } from '../../test/store/sample-brand.js';
import { sharedSqlite } from '../../test/helpers/shared-database.js';
import { filterBombSvg } from '../../test/helpers/hostile-svg.js';
import { ROOT, waitForHttp } from '../fleet-processes.js';
import { peakMb } from '../../test/helpers/health-probe.js';

const DOMAIN = 'hostile-svg.test';
const PORT = Number(process.env.BENCH_PORT ?? 18_805);
/** Near the CDN's largest side: the filter bomb draws for minutes at these sizes. */
const HOSTILE_SIZES = [1000, 1001, 1002, 1003];

function note(message: string): void {
  process.stderr.write(`svg-render bench: ${message}\n`);
}

function summary(ms: number[]): { n: number; medianMs: number; p95Ms: number; maxMs: number } {
  const sorted = [...ms].sort((a, b) => a - b);
  const at = (q: number) => Number((sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0).toFixed(1));
  return { n: sorted.length, medianMs: at(0.5), p95Ms: at(0.95), maxMs: Number((sorted.at(-1) ?? 0).toFixed(1)) };
}

async function timed(url: string): Promise<number> {
  const start = performance.now();
  const res = await fetch(url);
  await res.arrayBuffer();
  if (res.status !== 200) throw new Error(`${url}: ${res.status}`);
  return performance.now() - start;
}

/** `/healthz` and `/assets/{key}` one after the other, until `until()` says stop (at least `min` rounds). */
async function probe(base: string, assetKey: string, until: () => boolean, min: number): Promise<{ healthz: number[]; assets: number[] }> {
  const healthz: number[] = [];
  const assets: number[] = [];
  for (let i = 0; i < min || !until(); i++) {
    healthz.push(await timed(`${base}/healthz`));
    assets.push(await timed(`${base}/assets/${assetKey}`));
  }
  return { healthz, assets };
}

async function seed(env: Record<string, string>): Promise<{ clientId: string; assetKey: string }> {
  const services = await createServices(loadConfig(env), silentLogger());
  try {
    const svg = await services.assets.put(Buffer.from(filterBombSvg()), 'svg');
    const png = await services.assets.put(await sharp({ create: { width: 256, height: 256, channels: 4, background: '#1e40af' } }).png().toBuffer(), 'png');
    const logo = { theme: null, type: 'logo' as const, tags: [], formats: [{ src: svg.key, format: 'svg' as const, width: 1000, height: 1000, size: svg.size, background: null }] };
    const now = new Date();
    await services.stores.brands.saveBrand({ brand: sampleBrand(DOMAIN, { logos: [logo] }), status: 'indexed', crawledAt: now, createdAt: now, updatedAt: now }, [{ kind: 'domain', value: DOMAIN }]);
    const org = await services.accounts.createOrganization({ name: 'svg bench', plan: 'paid' });
    return { clientId: (await services.clientIds.create(org.id)).id, assetKey: png.key };
  } finally {
    await services.close();
  }
}

const db = await sharedSqlite();
const env: Record<string, string> = { ...db.env, HOST: '127.0.0.1', PORT: String(PORT), BRANDBASE_WORKER_CONCURRENCY: '0', BRANDBASE_LOG_LEVEL: 'warn' };
const { clientId, assetKey } = await seed(env);
const server = spawn(process.execPath, [path.join(ROOT, 'bin/brandbase.js'), 'serve'], { env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'inherit'] });
try {
  const base = `http://127.0.0.1:${PORT}`;
  await waitForHttp(`${base}/healthz`);
  note('server up; baseline');
  await probe(base, assetKey, () => true, 20); // warm
  const baseline = await probe(base, assetKey, () => true, 200);
  note('hostile renders');
  let done = false;
  const hostileStart = performance.now();
  const hostile = Promise.all(
    HOSTILE_SIZES.map(async (w) => {
      const res = await fetch(`${base}/logo/${DOMAIN}/type/logo/w/${w}.png?c=${clientId}`);
      await res.arrayBuffer();
      return { w, status: res.status, fallback: res.headers.get('x-bf-fallback'), ms: Math.round(performance.now() - hostileStart) };
    }),
  ).finally(() => (done = true));
  const during = await probe(base, assetKey, () => done, 20);
  const answers = await hostile;
  console.log(
    JSON.stringify(
      {
        benchmark: 'GET /healthz and GET /assets/{key} latency, idle vs during 4 hostile SVG renders of the logo CDN',
        svgRenderTimeoutMs: loadConfig(env).cdn.svgRender.timeoutMs,
        baseline: { healthz: summary(baseline.healthz), assets: summary(baseline.assets) },
        duringHostileRenders: { healthz: summary(during.healthz), assets: summary(during.assets) },
        hostileAnswers: answers,
        serverPeakMb: peakMb(server.pid as number),
      },
      null,
      2,
    ),
  );
} finally {
  server.kill('SIGTERM');
  await new Promise((resolve) => (server.exitCode !== null ? resolve(null) : server.once('exit', resolve)));
  await db.cleanup();
}
