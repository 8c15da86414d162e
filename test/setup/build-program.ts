/**
 * vitest globalSetup: builds the program users run (dist/, when the sources changed since the last build) before
 * any test starts one, so the tests that spawn `bin/brandbase.js` drive the compiled JavaScript of the sources
 * under test, never a stale build.
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';

export default function setup(): void {
  const root = path.resolve(import.meta.dirname, '../..');
  execFileSync(process.execPath, [path.join(root, 'scripts/build.mjs'), '--if-stale'], { cwd: root, stdio: 'inherit' });
}
