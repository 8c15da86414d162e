#!/usr/bin/env node
// Builds the program users run: src/ compiled and bundled into dist/ by esbuild, so `brandbase` starts from
// plain JavaScript with no TypeScript compiler at start (docs/adr/0018-compiled-program.md). Types are checked by
// `npm run typecheck`, not here; the build takes well under a second.
//
// Three entry points: the CLI, the crawl worker (a child process or thread, ADR 0014) and the SVG render worker
// (a child process, issue 33). Code shared by them and
// modules loaded on demand (`await import(...)`: the server, the crawler) become chunks in dist/chunks/, so an admin
// command loads only what it runs. Chunks sit at the same depth below the repository root as src/<folder>/ files,
// so paths built from import.meta.url (the crawl worker's entry, the docs/ folder) resolve alike from either tree.
//
// npm packages stay external (loaded from node_modules: native addons, packages that read their own files), except
// Kysely (pure ESM, ~280 modules: loaded apart, it was half of an admin command's start time). A CommonJS package
// cannot be inlined into ESM chunks (its require() of Node built-ins fails), so commander stays external.
//
// `--if-stale` (the test run's setup): builds only when the sources changed since the last build, and then adds
// the new files over the old ones instead of emptying dist/ first, so a `brandbase` process already running from
// dist/ still finds the chunks it loads later. `npm run build` starts from an empty dist/.
import { build } from 'esbuild';
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = path.join(root, 'dist');
const stampFile = path.join(dist, '.sources');
const INLINED = new Set(['kysely']);

function filesUnder(dir) {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.join(entry.parentPath ?? entry.path, entry.name))
    .sort();
}

/** Names, sizes and modification times of everything the build reads. */
function sourcesStamp() {
  const hash = createHash('sha256');
  for (const file of [...filesUnder(path.join(root, 'src')), path.join(root, 'package.json'), fileURLToPath(import.meta.url)]) {
    const { size, mtimeMs } = statSync(file);
    hash.update(`${path.relative(root, file)}\0${size}\0${mtimeMs}\n`);
  }
  return hash.digest('hex');
}

function readStamp() {
  try {
    return readFileSync(stampFile, 'utf8');
  } catch {
    return null;
  }
}

async function compile(outdir) {
  const { dependencies } = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
  const external = Object.keys(dependencies)
    .filter((name) => !INLINED.has(name))
    .flatMap((name) => [name, `${name}/*`]);
  await build({
    absWorkingDir: root,
    entryPoints: { 'cli/main': 'src/cli/main.ts', 'main/crawl-worker': 'src/main/crawl-worker.ts', 'main/svg-render-worker': 'src/main/svg-render-worker.ts' },
    outdir,
    chunkNames: 'chunks/[name]-[hash]',
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20.18',
    external,
    logLevel: 'warning',
  });
}

const ifStale = process.argv.includes('--if-stale');
const stamp = sourcesStamp();
if (ifStale && readStamp() === stamp) process.exit(0);
const staging = `${dist}.${process.pid}.tmp`;
await compile(staging);
if (!ifStale) rmSync(dist, { recursive: true, force: true });
// Each file is renamed into place (atomic on one file system): a process starting meanwhile sees whole files.
for (const file of filesUnder(staging)) {
  const target = path.join(dist, path.relative(staging, file));
  mkdirSync(path.dirname(target), { recursive: true });
  renameSync(file, target);
}
rmSync(staging, { recursive: true, force: true });
writeFileSync(stampFile, stamp);
