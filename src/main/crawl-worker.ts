/**
 * Entry of a crawl worker (ADR 0014): a child process of `brandbase serve` (or a worker thread), started by the
 * pool in `isolated-crawler.ts`. A composition root of its own: it builds the crawler's safe fetcher (the host map
 * from the config it is given) and an asset store over the service's asset folder, then runs one task at a time:
 * a whole crawl (`crawlBrand`, answered with the draft record, which holds asset keys) or the logo renditions of a
 * record about to be saved (sharp). Parsing, CSS, image decoding and analysis all happen here, under this
 * worker's memory and time limits, never on the API's event loop. Rendering stays in the main process's one
 * Chromium (ADR 0007): the worker asks for a page by message and parses the HTML it gets back.
 */
import path from 'node:path';
import { Writable } from 'node:stream';
import { parentPort, workerData } from 'node:worker_threads';
import { openAssetStore } from './asset-store-backend.js';
import { crawlBrand } from '../crawl/crawl-brand.js';
import type { PageRenderer, RenderOptions, RenderedPage } from '../crawl/fetch/render/page-renderer.js';
import { withLogoRenditions } from '../media/logo-renditions.js';
import { prerenderLogoVariants } from '../cdn/prerender-variants.js';
import { createLogger } from '../platform/logger.js';
import { SafeFetcher } from '../platform/safe-fetcher.js';
import { crawlOptionsFor } from './crawl-options.js';
import type { CrawlWorkerData, FromWorker, ToWorker } from '../crawl/isolation/crawl-worker-protocol.js';

interface Channel {
  send(message: FromWorker): void;
  onMessage(listener: (message: ToWorker) => void): void;
}

/** The pool's end: a worker thread's parent port, or a child process's IPC channel. */
function channel(): Channel {
  const port = parentPort;
  if (port) return { send: (m) => port.postMessage(m), onMessage: (listener) => void port.on('message', listener) };
  const send = process.send?.bind(process);
  if (!send) throw new Error('crawl-worker.ts runs as a child process or worker thread of isolated-crawler.ts');
  // The parent decides when a crawl worker ends: a Ctrl-C reaching the whole process group must not stop a crawl
  // the server is still waiting for during its graceful shutdown. A parent that is gone closes the channel.
  process.on('SIGINT', () => undefined);
  process.on('SIGTERM', () => undefined);
  process.on('disconnect', () => process.exit(0));
  return { send: (m) => void send(m), onMessage: (listener) => void process.on('message', listener) };
}

/** A PageRenderer that asks the main side's Chromium (every browser request still goes through its safe fetcher). */
class RemoteRenderer implements PageRenderer {
  private next = 0;
  private readonly waiting = new Map<number, (page: RenderedPage | null) => void>();

  constructor(private readonly send: (message: FromWorker) => void) {}

  render(url: string, options: RenderOptions): Promise<RenderedPage | null> {
    if (options.signal?.aborted) return Promise.resolve(null);
    const id = ++this.next;
    return new Promise((resolve) => {
      const onAbort = (): void => {
        this.send({ type: 'render-abort', id });
        settle(null);
      };
      const settle = (page: RenderedPage | null): void => {
        this.waiting.delete(id);
        options.signal?.removeEventListener('abort', onAbort);
        resolve(page);
      };
      this.waiting.set(id, settle);
      options.signal?.addEventListener('abort', onAbort, { once: true });
      this.send({ type: 'render', id, url, timeoutMs: options.timeoutMs, awaitMark: options.awaitMark ?? false });
    });
  }

  answer(id: number, page: RenderedPage | null): void {
    this.waiting.get(id)?.(page);
  }
}

function start(link: Channel, { config, assetsDir, rendering }: CrawlWorkerData): void {
  // Log lines go to the main side, which writes them with its own logger (one output, never interleaved).
  const logger = createLogger({
    level: config.logLevel,
    destination: new Writable({
      write(chunk: Buffer | string, _encoding, done) {
        link.send({ type: 'log', line: chunk.toString() });
        done();
      },
    }),
  });
  const fetcher = new SafeFetcher({ hostMap: config.crawlHosts, logger });
  // The backend the configuration names, as in the API process (ADR 0038): the shared folder or the bucket.
  const assets = openAssetStore(config, path.resolve(assetsDir));
  const renderer = rendering ? new RemoteRenderer(link.send) : undefined;
  const options = crawlOptionsFor(config);

  const run = async (message: Extract<ToWorker, { type: 'crawl' | 'renditions' }>): Promise<FromWorker> => {
    if (message.type === 'crawl') {
      const outcome = await crawlBrand(message.domain, { fetcher, assets, renderer, knownAnalyses: message.known ?? [] }, options);
      return { type: 'crawled', id: message.id, outcome };
    }
    const logos = await withLogoRenditions(message.logos, assets);
    // The logo CDN's common variants of new SVG logos, drawn here under this worker's limits (issue 33).
    await prerenderLogoVariants(logos ?? message.logos, assets);
    return { type: 'rendition-done', id: message.id, logos };
  };

  link.onMessage((message) => {
    if (message.type === 'init') return;
    if (message.type === 'rendered') return renderer?.answer(message.id, message.page);
    run(message).then(link.send, (error: unknown) => {
      const err = error instanceof Error ? error : new Error(String(error));
      link.send({ type: 'task-error', id: message.id, message: err.message, stack: err.stack });
    });
  });
  link.send({ type: 'ready' });
}

const link = channel();
if (parentPort) start(link, workerData as CrawlWorkerData);
else {
  // A child process gets its data as the first message.
  const onInit = (message: ToWorker): void => {
    if (message.type !== 'init') return;
    process.off('message', onInit);
    start(link, message.data);
  };
  process.on('message', onInit);
}
