/**
 * The SVG render pool (issue 33) with its real worker processes: renders come back from a worker; a hostile SVG is
 * killed at the time limit (the worker, not a promise) and the next render gets a fresh worker; past the memory
 * limit the worker is killed; a full queue refuses at once. No timing is asserted: the hostile render takes minutes,
 * the limits here are a second, and the in-flight states are awaited through the pool's events.
 */
import { once } from 'node:events';
import { afterEach, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { SvgRenderPool, type SvgRenderPoolOptions } from '../../src/cdn/svg-render-pool.js';
import { SvgRenderUnavailable } from '../../src/cdn/svg-renderer.js';
import { svgRenderWorkerEntry } from '../../src/main/svg-render-entry.js';
import { paletteLogos, type LogoFileReader } from '../../src/palette/logo-colors.js';
import { filterBombSvg, hugeCanvasSvg, plainSvg } from '../helpers/hostile-svg.js';
import { useProcessTimeouts } from '../helpers/process-timeouts.js';

useProcessTimeouts();

const GEOMETRY = { width: 100, height: 50, contentWidth: 100, contentHeight: 50, upscaled: false };
/** The filter bomb at this size draws for minutes (at 100 px it would take seconds). */
const HOSTILE = { width: 1000, height: 1000, contentWidth: 1000, contentHeight: 1000, upscaled: false };
const pools: SvgRenderPool[] = [];

function pool(options: Partial<SvgRenderPoolOptions> = {}): SvgRenderPool {
  const made = new SvgRenderPool({ entry: svgRenderWorkerEntry(), workers: 1, queue: 4, timeoutMs: 60_000, memoryMb: 256, ...options });
  pools.push(made);
  return made;
}

async function reason(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  return error instanceof SvgRenderUnavailable ? error.reason : String(error);
}

afterEach(async () => {
  await Promise.all(pools.splice(0).map((p) => p.close()));
});

describe('SVG render pool', () => {
  it('draws a variant and a raster in a worker process', async () => {
    const renderer = pool();
    const png = await renderer.variant(plainSvg(), GEOMETRY, 'png');
    const meta = await sharp(png).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['png', 100, 50]);
    const raster = await renderer.raster(plainSvg(20, 10));
    expect([raster.width, raster.height, raster.data.length]).toEqual([20, 10, 800]);
    expect(renderer.stats()).toMatchObject({ started: 1, rendered: 2, running: 0 });
  });

  it('kills the worker of a hostile SVG at the time limit; the next render gets a fresh worker', async () => {
    const renderer = pool({ timeoutMs: 1000 });
    expect(await reason(renderer.variant(filterBombSvg(), HOSTILE, 'png'))).toBe('timeout');
    expect(renderer.stats()).toMatchObject({ timedOut: 1, running: 0 });
    expect((await sharp(await renderer.variant(plainSvg(), GEOMETRY, 'webp')).metadata()).width).toBe(100);
    expect(renderer.stats().started).toBe(2);
  });

  it("a palette's logo colours are drawn by the pool: a plain SVG gives its colour, a filter bomb is killed and left out", async () => {
    const renderer = pool({ timeoutMs: 1000 });
    const files = new Map([
      ['plain.svg', plainSvg(200, 100, '#1e40af')],
      ['bomb.svg', filterBombSvg()],
    ]);
    const reader: LogoFileReader = { get: async (key: string) => ({ bytes: Buffer.from(files.get(key) ?? ''), contentType: 'image/svg+xml' }) };
    const logo = (src: string, type: 'logo' | 'icon') => ({ theme: null, type, tags: [], formats: [{ src, format: 'svg' as const, width: 1000, height: 1000, size: 1, background: null }] });
    const colours = await paletteLogos([logo('bomb.svg', 'icon'), logo('plain.svg', 'logo')], reader, (svg) => renderer.raster(svg));
    expect(colours).toEqual([expect.objectContaining({ type: 'logo', primary: true, colors: [{ hex: '#1e40af', coverage: 1 }] })]);
    expect(renderer.stats()).toMatchObject({ timedOut: 1, rendered: 1, running: 0 });
  });

  it('kills a worker past its memory limit', async () => {
    const renderer = pool({ memoryMb: 160 });
    expect(await reason(renderer.raster(hugeCanvasSvg()))).toMatch(/^(memory|crashed)$/);
    expect(renderer.stats().overMemory + renderer.stats().died).toBe(1);
    expect((await renderer.raster(plainSvg(20, 10))).width).toBe(20);
  });

  it('refuses at once when every worker is busy and the queue is full; the waiting render runs after the kill', async () => {
    let expire: (() => void) | null = null;
    const renderer = pool({ queue: 1, startLimit: (_ms, fire) => ((expire = fire), () => undefined) });
    const started = once(renderer.events, 'start');
    const hostile = renderer.variant(filterBombSvg(), HOSTILE, 'png');
    await started;
    const waiting = renderer.variant(plainSvg(), GEOMETRY, 'png');
    expect(await reason(renderer.variant(plainSvg(), GEOMETRY, 'jpeg'))).toBe('busy');
    expect(renderer.stats()).toMatchObject({ running: 1, waiting: 1, refused: 1 });
    (expire as unknown as () => void)();
    expect(await reason(hostile)).toBe('timeout');
    expect((await sharp(await waiting).metadata()).width).toBe(100);
  });

  it('one document takes one worker at a time; its renders waiting in line fail with the one killed, unsent', async () => {
    // The hostile render's limit, the first one started (the plain render's comes second).
    let expire: (() => void) | null = null;
    const renderer = pool({ workers: 2, startLimit: (_ms, fire) => ((expire ??= fire), () => undefined) });
    const started = once(renderer.events, 'start');
    const hostile = renderer.variant(filterBombSvg(), HOSTILE, 'png');
    await started;
    const sameSvg = renderer.variant(filterBombSvg(), { ...HOSTILE, width: 900, contentWidth: 900 }, 'webp');
    // Another document gets the second worker; the second size of the hostile one waits for the first.
    expect((await sharp(await renderer.variant(plainSvg(), GEOMETRY, 'png')).metadata()).width).toBe(100);
    expect(renderer.stats()).toMatchObject({ running: 1, waiting: 1 });
    (expire as unknown as () => void)();
    expect([await reason(hostile), await reason(sameSvg)]).toEqual(['timeout', 'timeout']);
    expect(renderer.stats()).toMatchObject({ timedOut: 1, rendered: 1, running: 0, waiting: 0 });
  });
});
