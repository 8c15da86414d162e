/**
 * The logo corpus (eval/logos/eval-sites.ts) served on loopback from a process of its own, as a website is: the
 * crawl-isolation figures of bench/extraction.ts compare crawls in the bench's own thread with crawls in workers,
 * and a site answered from the same thread as an in-process crawl would favour that one. Sends
 * `{hostMap}` to its parent once listening; exits when the parent goes.
 *
 *   fork('bench/corpus-server.ts', [latencyMs], { execArgv: ['--import', 'tsx'] })
 */
import { buildEvalSites } from '../eval/logos/eval-sites.js';
import { serveVirtualHosts } from '../eval/logos/virtual-hosts.js';

const latencyMs = Number(process.argv[2] ?? 0);
const corpus = await buildEvalSites();
const server = await serveVirtualHosts(Object.fromEntries(corpus.map((s) => [s.host, s.files])), { latencyMs });
process.send?.({ hostMap: server.hostMap });
process.on('disconnect', () => void server.close().then(() => process.exit(0)));
