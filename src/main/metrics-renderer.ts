import type { PageRenderer, RenderOptions, RenderedPage } from '../crawl/fetch/render/page-renderer.js';
import type { BoundCounter, MetricsRegistry } from '../platform/metrics.js';

type Purpose = 'crawl' | 'palette';

/** The process's renderer with its usage counted (`/metrics`, ADR 0039); `warm` and `close` pass through. */
export interface CountedRenderer extends PageRenderer {
  warm(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Counts renders started and failed (null: failed, timed out or skipped while Chromium is paused) by purpose: a
 * crawl's render or the palette's background render (`paletteOnly`). Crawl workers render through this process's
 * renderer (crawl-worker.ts), so one wrapper here counts every render of the process.
 */
export function countedRenderer(renderer: CountedRenderer, metrics: MetricsRegistry): CountedRenderer {
  const started = metrics.counter('brandbase_renders_started_total', 'Headless-browser renders started, by purpose (crawl or palette).', ['purpose']);
  const failed = metrics.counter('brandbase_renders_failed_total', 'Renders that produced no page (failed, timed out or Chromium paused), by purpose.', ['purpose']);
  const counters: Record<Purpose, { started: BoundCounter; failed: BoundCounter }> = {
    crawl: { started: started.bind({ purpose: 'crawl' }), failed: failed.bind({ purpose: 'crawl' }) },
    palette: { started: started.bind({ purpose: 'palette' }), failed: failed.bind({ purpose: 'palette' }) },
  };
  return {
    async render(url: string, options: RenderOptions): Promise<RenderedPage | null> {
      const counter = counters[options.paletteOnly ? 'palette' : 'crawl'];
      counter.started.inc();
      const page = await renderer.render(url, options).catch((error: unknown) => {
        counter.failed.inc();
        throw error;
      });
      if (page === null) counter.failed.inc();
      return page;
    },
    warm: () => renderer.warm(),
    close: () => renderer.close(),
  };
}
