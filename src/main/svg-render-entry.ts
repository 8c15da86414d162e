import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { WorkerProcessEntry } from '../platform/worker-process.js';

/**
 * The SVG render workers' entry (issue 33): `src/main/svg-render-worker.ts` run through tsx when this runs from the
 * sources (tests, `npm run dev`), `dist/main/svg-render-worker.js` in the built program (ADR 0018). Written as
 * `../main/` because the build puts this code in `dist/chunks/`, one level below the root like `src/main/`.
 */
export function svgRenderWorkerEntry(): WorkerProcessEntry {
  const ext = path.extname(fileURLToPath(import.meta.url));
  return { url: new URL(`../main/svg-render-worker${ext}`, import.meta.url), typescript: ext === '.ts' };
}
