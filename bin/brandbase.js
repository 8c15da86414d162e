#!/usr/bin/env node
// The brandbase command: runs the JavaScript compiled from src/ into dist/ by `npm run build`, which `npm ci`
// runs through the `prepare` script (docs/adr/0016-compiled-program.md). No TypeScript is compiled at start.
import { existsSync } from 'node:fs';

const main = new URL('../dist/cli/main.js', import.meta.url);
if (!existsSync(main)) {
  console.error('brandbase: the program is not built yet; run `npm run build` (npm ci runs it for you).');
  process.exit(2);
}
await import(main.href);
