/**
 * How long opening a NEW store takes (issue 34 item 6): migrations plus the embedded reference data (listings, ETFs,
 * crypto assets and the brand knowledge set), as `brandbase migrate` or the server's first start does it
 * (`openBackends`), then the first search's one-time sync of the reference names into the name index. Each run opens a
 * fresh SQLite file (or a fresh PostgreSQL schema when `BENCH_PG_URL` is set) in a new child process, so module loading
 * and the store are cold every time. Prints each run and the median.
 * With `--base REV`, that revision's sources (`git archive`, into a temp folder sharing this checkout's node_modules)
 * take turns with this tree's, run by run, so a busy machine's drift falls on both alike.
 * Run: `node --import tsx bench/store-open.ts [runs] [--base REV]` (default 5 runs).
 */
import { execFileSync, execSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { loadConfig as loadConfigType } from '../src/config/config.js';
import type { openBackends as openBackendsType } from '../src/main/open-backends.js';

const ROOT = path.resolve(import.meta.dirname, '..');
const RUNS = Number(process.argv[2] ?? 5);
const BASE = process.argv.includes('--base') ? process.argv[process.argv.indexOf('--base') + 1] : undefined;
const PG_URL = process.env.BENCH_PG_URL;

interface Timing {
  /** Loading the modules (through tsx here; the built program loads faster). */
  importMs: number;
  /** `openBackends` on a new store: migrations and the embedded data. */
  openMs: number;
  syncMs: number;
  rows: Record<string, number>;
}

/** The child: one cold open of a new store with the sources of `tree`, timed. */
async function child(tree: string, dataDir: string): Promise<void> {
  const importStarted = performance.now();
  const [{ loadConfig }, { openBackends }] = (await Promise.all([import(path.join(tree, 'src/config/config.js')), import(path.join(tree, 'src/main/open-backends.js'))])) as [
    { loadConfig: typeof loadConfigType },
    { openBackends: typeof openBackendsType },
  ];
  const env: Record<string, string> = { BRANDBASE_DATA_DIR: dataDir };
  const schema = process.env.BENCH_PG_SCHEMA;
  if (PG_URL && schema) env.BRANDBASE_DATABASE_URL = `${PG_URL}${PG_URL.includes('?') ? '&' : '?'}options=-c%20search_path%3D${schema}`;
  const importMs = performance.now() - importStarted;
  const started = performance.now();
  const backends = await openBackends(loadConfig(env));
  const openMs = performance.now() - started;
  const syncStarted = performance.now();
  await backends.stores.search.syncSearchReferenceNames();
  const syncMs = performance.now() - syncStarted;
  const { sources } = await backends.stores.referenceData.referenceStatus();
  const rows: Record<string, number> = {};
  for (const s of sources) rows[s.table] = (rows[s.table] ?? 0) + s.rows;
  await backends.close();
  process.stdout.write(JSON.stringify({ importMs, openMs, syncMs, rows } satisfies Timing));
}

async function createSchema(schema: string): Promise<void> {
  const pg = (await import('pg')).default;
  const client = new pg.Client({ connectionString: PG_URL });
  await client.connect();
  try {
    await client.query(`create schema "${schema}"`);
  } finally {
    await client.end();
  }
}

async function dropSchema(schema: string): Promise<void> {
  const pg = (await import('pg')).default;
  const client = new pg.Client({ connectionString: PG_URL });
  await client.connect();
  try {
    await client.query(`drop schema if exists "${schema}" cascade`);
  } finally {
    await client.end();
  }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

/** One cold open with `tree`'s sources. */
async function run(tree: string): Promise<Timing> {
  const dir = await mkdtemp(path.join(tmpdir(), 'brandbase-open-'));
  const schema = PG_URL ? `bench_${randomBytes(4).toString('hex')}` : undefined;
  try {
    if (schema) await createSchema(schema);
    const out = execFileSync(process.execPath, ['--import', 'tsx', import.meta.filename, '--child', tree, dir], {
      env: { ...process.env, ...(schema ? { BENCH_PG_SCHEMA: schema } : {}) },
      encoding: 'utf8',
    });
    return JSON.parse(out) as Timing;
  } finally {
    await rm(dir, { recursive: true, force: true });
    if (schema) await dropSchema(schema);
  }
}

/** `rev`'s sources in a temp folder (git archive: no worktree registered), sharing this checkout's node_modules. */
async function baseTree(rev: string): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'brandbase-base-'));
  execSync(`git archive ${JSON.stringify(rev)} | tar -x -C ${JSON.stringify(dir)}`, { cwd: ROOT });
  await symlink(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'));
  return dir;
}

async function main(): Promise<void> {
  const trees: { name: string; dir: string }[] = [{ name: 'head', dir: ROOT }];
  if (BASE) trees.unshift({ name: `base ${BASE}`, dir: await baseTree(BASE) });
  const timings = new Map<string, Timing[]>(trees.map((t) => [t.name, []]));
  try {
    for (let i = 0; i < RUNS; i++) {
      // The order reversed every other run.
      for (const tree of i % 2 === 0 ? trees : [...trees].reverse()) {
        const timing = await run(tree.dir);
        timings.get(tree.name)?.push(timing);
        process.stdout.write(
          `${tree.name} run ${i + 1}: modules ${timing.importMs.toFixed(0)} ms, open ${timing.openMs.toFixed(0)} ms, first search sync ${timing.syncMs.toFixed(0)} ms, rows ${JSON.stringify(timing.rows)}\n`,
        );
      }
    }
  } finally {
    if (BASE) await rm(trees[0]?.dir ?? '', { recursive: true, force: true });
  }
  const backend = PG_URL ? 'PostgreSQL' : 'SQLite';
  for (const [name, list] of timings) {
    process.stdout.write(
      `${backend}, ${name}, ${RUNS} runs, medians: modules ${median(list.map((t) => t.importMs)).toFixed(0)} ms, new store open ${median(list.map((t) => t.openMs)).toFixed(0)} ms (migrations + embedded data), first search sync ${median(list.map((t) => t.syncMs)).toFixed(0)} ms\n`,
    );
  }
}

if (process.argv[2] === '--child') await child(process.argv[3] ?? ROOT, process.argv[4] ?? '');
else await main();
