/**
 * A process that saves a brand and then waits to be killed, for saved-work-survives-kill.test.ts: it opens the
 * parent's database (SQLite file or PostgreSQL schema) with every product's store as main/ builds them, queues the
 * palette render as `serve` does with Chromium installed, saves the brand twice as two crawls would (the second a
 * rebrand, with CSS palette evidence), prints `saved <eventId>` once the second save committed, and runs no work.
 * Run with `node --import tsx save-then-die.child.ts <backend spec JSON> <domain>`.
 */
import { PALETTE_EVIDENCE_VERSION, type PaletteEvidence } from '../../src/domain/palette.js';
import { PaletteRenderScheduler } from '../../src/palette/palette-render-scheduler.js';
import { silentLogger } from '../../src/platform/logger.js';
import { sampleBrand } from '../store/sample-brand.js';
import { openBackendStores, type BackendSpec } from '../store/store-peer-backend.js';

const CSS: PaletteEvidence = { version: PALETTE_EVIDENCE_VERSION, source: 'css', css: {}, elements: [], tokens: [], gradients: [], pairs: [], themes: {}, signals: [] };

const [spec, domain] = process.argv.slice(2);
if (spec === undefined || domain === undefined) throw new Error('usage: save-then-die.child.ts <backend spec JSON> <domain>');
const stores = await openBackendStores(JSON.parse(spec) as BackendSpec);
stores.saveHooks.push(new PaletteRenderScheduler(stores.queue, silentLogger(), { enabled: true, maxDepth: 1000 }));

const first = sampleBrand(domain, { name: 'Phoenix Rockets' });
const t1 = new Date(Date.now() - 86_400_000);
await stores.brands.saveBrand({ brand: first, status: 'indexed', crawledAt: t1, createdAt: t1, updatedAt: t1 }, [{ kind: 'domain', value: domain }]);
const renamed = {
  ...first,
  name: 'Ashbird',
  logos: first.logos.map((logo) => ({ ...logo, formats: logo.formats.map((f) => ({ ...f, src: f.src.replace('cdn.example/', 'cdn.example/v2/') })) })),
};
const t2 = new Date();
const event = await stores.brands.saveBrand({ brand: renamed, status: 'indexed', crawledAt: t2, createdAt: t1, updatedAt: t2 }, [{ kind: 'domain', value: domain }], { paletteEvidence: CSS });
process.stdout.write(`saved ${event.id} ${event.announce?.kind ?? 'none'}\n`);
// Nothing runs the work this save queued: the parent kills this process with SIGKILL now.
setInterval(() => undefined, 1 << 30);
