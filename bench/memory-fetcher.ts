/** Helpers shared by the extraction benches: the corpus served from memory, and command-line values. */
import type { Fetcher, FetchResult } from '../src/platform/fetcher.js';
import type { StaticFile } from '../eval/logos/eval-sites.js';

/** Serves the corpus from memory: no sockets, no DNS, no robots.txt. */
export function memoryFetcher(sites: Record<string, Record<string, StaticFile>>): Fetcher {
  return {
    fetch(url: string): Promise<FetchResult> {
      const target = new URL(url);
      const file = sites[target.hostname]?.[target.pathname];
      const body = file ? Buffer.from(file.body) : Buffer.from('<!doctype html><title>Not found</title>');
      return Promise.resolve({ url: target.href, status: file ? 200 : 404, headers: { 'content-type': file?.type ?? 'text/html' }, body, redirects: [] });
    },
  };
}

/** The value after `name` on the command line, if any. */
export function argValue(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}
