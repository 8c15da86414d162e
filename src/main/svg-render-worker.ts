/**
 * Entry of an SVG render worker (issue 33): a child process of `brandbase serve`, started by the pool in
 * `cdn/svg-render-pool.ts`. Draws one SVG at a time (a CDN variant with sharp, or a raster with resvg for the
 * palette) and answers by IPC; the pool kills it past its time or memory limit. It holds nothing of the
 * service's: no store, no settings, no credentials (its environment has no `BRANDBASE_*` or `PG*` variable).
 */
import sharp from 'sharp';
import { rasterizeSvgTo } from '../cdn/render-variant.js';
import type { FromSvgWorker, ToSvgWorker } from '../cdn/svg-render-protocol.js';
import { rasterizeSvg } from '../media/rasterize-svg.js';

const send = process.send?.bind(process);
if (!send) throw new Error('svg-render-worker.ts runs as a child process of svg-render-pool.ts');
// One render at a time, on one thread: the pool decides how many run, and nothing is kept between renders.
sharp.concurrency(1);
sharp.cache(false);
// The parent decides when a worker ends; a parent that is gone closes the channel.
process.on('SIGINT', () => undefined);
process.on('SIGTERM', () => undefined);
process.on('disconnect', () => process.exit(0));

async function run(message: ToSvgWorker): Promise<FromSvgWorker> {
  if (message.type === 'variant') {
    const bytes = await rasterizeSvgTo(message.svg, message.geometry, message.format);
    return { type: 'variant-done', id: message.id, bytes };
  }
  const raster = rasterizeSvg(message.svg);
  return { type: 'raster-done', id: message.id, data: raster.data, width: raster.width, height: raster.height };
}

process.on('message', (message: ToSvgWorker) => {
  run(message).then(
    (answer) => void send(answer),
    (error: unknown) => void send({ type: 'failed', id: message.id, message: error instanceof Error ? error.message : String(error) } satisfies FromSvgWorker),
  );
});
send({ type: 'ready' } satisfies FromSvgWorker);
